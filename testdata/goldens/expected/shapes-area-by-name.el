;;; shapes-area-by-name.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: shapes-area-by-name (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

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
