;;; input.el --- structs and a pattern macro of a file in the same directory  -*- lexical-binding: t -*-

(require 'shapes)

(defun measure (s)
  (cond
   ((cl-typep s 'shapes-rect)
    (let ((pcx--x0 (aref s 1)))
      (cond
       ((and (integerp pcx--x0) (let ((w pcx--x0)) (> w 0)))
        (let ((pcx--x1 (aref s 2)))
          (cond
           ((and (integerp pcx--x1) (let ((h pcx--x1)) (> h 0)))
            (let ((w pcx--x0) (h pcx--x1)) (ignore w h) (* w h)))
           ((cl-typep s 'shapes-circle) (let ((r pcx--x0)) (list 'circle r)))
           ((cl-typep s 'shapes-seg)
            (let ((from (nth 1 s)) (to (nth 2 s))) (list 'seg from to)))
           ((and (integerp s) (let ((n s)) (> n 0)))
            (let ((n s)) (ignore n) (list 'positive n)))
           (t 'unknown))))
       ((cl-typep s 'shapes-circle) (let ((r pcx--x0)) (list 'circle r)))
       ((cl-typep s 'shapes-seg)
        (let ((from (nth 1 s)) (to (nth 2 s))) (list 'seg from to)))
       ((and (integerp s) (let ((n s)) (> n 0)))
        (let ((n s)) (ignore n) (list 'positive n)))
       (t 'unknown))))
   ((cl-typep s 'shapes-circle) (let ((r (aref s 1))) (list 'circle r)))
   ((cl-typep s 'shapes-seg)
    (let ((from (nth 1 s)) (to (nth 2 s))) (list 'seg from to)))
   ((and (integerp s) (let ((n s)) (> n 0)))
    (let ((n s)) (ignore n) (list 'positive n)))
   (t 'unknown)))
