;;; input.el --- structs and a pattern macro of a file in the same directory  -*- lexical-binding: t -*-

(require 'shapes)

(defun measure (s)
  (let* ((pcx--pcase-0 (lambda (r) (list 'circle r)))
         (pcx--pcase-1 (lambda ()
                         (cond
                          ((cl-typep s 'shapes-seg)
                           (let* ((pcx--x0 (nth 1 s)) (pcx--x1 (nth 2 s)))
                             (let ((from pcx--x0) (to pcx--x1))
                               (list 'seg from to))))
                          ((integerp s)
                           (if (let* ((n s)) (> n 0))
                               (let ((n s)) (ignore n) (list 'positive n))
                             'unknown))
                          (t 'unknown)))))
    (cond
     ((cl-typep s 'shapes-rect)
      (let* ((pcx--x2 (aref s 1)))
        (cond
         ((integerp pcx--x2)
          (cond
           ((let* ((w pcx--x2)) (> w 0))
            (let* ((pcx--x3 (aref s 2)))
              (cond
               ((integerp pcx--x3)
                (cond
                 ((let* ((h pcx--x3)) (> h 0))
                  (let ((w pcx--x2) (h pcx--x3)) (ignore w h) (* w h)))
                 ((cl-typep s 'shapes-circle) (funcall pcx--pcase-0 pcx--x2))
                 (t (funcall pcx--pcase-1))))
               ((cl-typep s 'shapes-circle) (funcall pcx--pcase-0 pcx--x2))
               (t (funcall pcx--pcase-1)))))
           ((cl-typep s 'shapes-circle) (funcall pcx--pcase-0 pcx--x2))
           (t (funcall pcx--pcase-1))))
         ((cl-typep s 'shapes-circle) (funcall pcx--pcase-0 pcx--x2))
         (t (funcall pcx--pcase-1)))))
     ((cl-typep s 'shapes-circle)
      (let* ((pcx--x2 (aref s 1))) (funcall pcx--pcase-0 pcx--x2)))
     (t (funcall pcx--pcase-1)))))
