;;; shapes.expanded.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: shapes-whole-file (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

;;; shapes.el --- input of the golden cases  -*- lexical-binding: t -*-

;; Geometry with the pcase family and cond*: each top-level form is
;; selected by some case of ../manifest.yaml.

(require 'cl-lib)

(cl-defstruct (shape-point (:type vector) :named) x y)

(pcase-defmacro shape-pos (v)
  `(and (pred numberp) ,v (guard (> ,v 0))))

(defun shape-area (shape)
  "The area of SHAPE, a list (KIND SIZE...)."
  (cond
   ((consp shape)
    (let ((pcx--x0 (car shape)))
      (cond
       ((eq pcx--x0 'rect)
        (let ((pcx--x1 (cdr shape)))
          (cond
           ((numberp (car-safe pcx--x1))
            (let ((pcx--x2 (car pcx--x1)))
              (cond
               ((and (let ((w pcx--x2)) (> w 0))
                     (numberp (car-safe (cdr pcx--x1))))
                (let* ((pcx--x3 (cdr pcx--x1)) (pcx--x4 (car pcx--x3)))
                  (cond
                   ((and (let ((h pcx--x4)) (> h 0)) (null (cdr-safe pcx--x3)))
                    (let ((w pcx--x2) (h pcx--x4)) (ignore w h) (* w h)))
                   ((cl-typep shape 'shape-point)
                    (let ((x (aref shape 1)) (y (aref shape 2)))
                      (ignore x y)
                      0))
                   (t (error "Not a shape: %S" shape)))))
               ((cl-typep shape 'shape-point)
                (let ((x (aref shape 1)) (y (aref shape 2))) (ignore x y) 0))
               (t (error "Not a shape: %S" shape)))))
           ((cl-typep shape 'shape-point)
            (let ((x (aref shape 1)) (y (aref shape 2))) (ignore x y) 0))
           (t (error "Not a shape: %S" shape)))))
       ((eq pcx--x0 'square)
        (let ((pcx--x1 (cdr shape)))
          (cond
           ((and (consp pcx--x1) (null (cdr pcx--x1)))
            (let ((s (car pcx--x1))) (* s s)))
           ((cl-typep shape 'shape-point)
            (let ((x (aref shape 1)) (y (aref shape 2))) (ignore x y) 0))
           (t (error "Not a shape: %S" shape)))))
       ((eq pcx--x0 'circle)
        (let ((pcx--x1 (cdr shape)))
          (cond
           ;; Circles are approximate.
           ((and (consp pcx--x1) (null (cdr pcx--x1)))
            (let ((r (car pcx--x1))) (* 3 r r)))
           ((cl-typep shape 'shape-point)
            (let ((x (aref shape 1)) (y (aref shape 2))) (ignore x y) 0))
           (t (error "Not a shape: %S" shape)))))
       ((cl-typep shape 'shape-point)
        (let ((x (aref shape 1)) (y (aref shape 2))) (ignore x y) 0))
       (t (error "Not a shape: %S" shape)))))
   ((cl-typep shape 'shape-point)
    (let ((x (aref shape 1)) (y (aref shape 2))) (ignore x y) 0))
   (t (error "Not a shape: %S" shape))))

(defun shape-sum (points)
  (let ((sum 0))
    (dolist (pcx--x0 points)
      (let ((x (car-safe pcx--x0)) (y (cdr-safe pcx--x0)))
        (setq sum (+ sum x y))))
    sum))

(defun shape-kind (token)
  (if (and (consp token) (eq (car token) 'rect))
      'rectangle
    (let ((n (and (numberp token) token)))
      (when n :non-exit)
      (if n 'number 'unknown))))

(provide 'shapes)
;;; shapes.el ends here
