;;; shapes.expanded.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: shapes-whole-file (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

;;; shapes.el --- input of the golden cases  -*- lexical-binding: t -*-

;; Geometry with the pcase family and cond*: each top-level form is
;; selected by some case of ../manifest.yaml.

(cl-defstruct (shape-point (:type vector) :named) x y)

(pcase-defmacro shape-pos (v)
  `(and (pred numberp) ,v (guard (> ,v 0))))

(defun shape-area (shape)
  "The area of SHAPE, a list (KIND SIZE...)."
  (let* ((pcx--pcase-0 (lambda ()
                         (if (cl-typep shape 'shape-point)
                             (let* ((pcx--x0 (aref shape 1))
                                    (pcx--x1 (aref shape 2)))
                               (let ((x pcx--x0) (y pcx--x1)) (ignore x y) 0))
                           (error "Not a shape: %S" shape)))))
    (if (consp shape)
        (let* ((pcx--x2 (car-safe shape)))
          (cond
           ((eq pcx--x2 'rect)
            (let* ((pcx--x3 (cdr-safe shape)))
              (if (consp pcx--x3)
                  (let* ((pcx--x4 (car-safe pcx--x3)))
                    (if (numberp pcx--x4)
                        (if (let* ((w pcx--x4)) (> w 0))
                            (let* ((pcx--x5 (cdr-safe pcx--x3)))
                              (if (consp pcx--x5)
                                  (let* ((pcx--x6 (car-safe pcx--x5)))
                                    (if (numberp pcx--x6)
                                        (if (let* ((h pcx--x6)) (> h 0))
                                            (let* ((pcx--x7 (cdr-safe pcx--x5)))
                                              (if (null pcx--x7)
                                                  (let ((w pcx--x4) (h pcx--x6))
                                                    (ignore w h)
                                                    (* w h))
                                                (funcall pcx--pcase-0)))
                                          (funcall pcx--pcase-0))
                                      (funcall pcx--pcase-0)))
                                (funcall pcx--pcase-0)))
                          (funcall pcx--pcase-0))
                      (funcall pcx--pcase-0)))
                (funcall pcx--pcase-0))))
           ((eq pcx--x2 'square)
            (let* ((pcx--x3 (cdr-safe shape)))
              (if (consp pcx--x3)
                  (let* ((pcx--x4 (car-safe pcx--x3))
                         (pcx--x5 (cdr-safe pcx--x3)))
                    (if (null pcx--x5)
                        (let ((s pcx--x4)) (* s s))
                      (funcall pcx--pcase-0)))
                (funcall pcx--pcase-0))))
           ((eq pcx--x2 'circle)
            (let* ((pcx--x3 (cdr-safe shape)))
              (if (consp pcx--x3)
                  (let* ((pcx--x4 (car-safe pcx--x3))
                         (pcx--x5 (cdr-safe pcx--x3)))
                    (if (null pcx--x5)
                        ;; Circles are approximate.
                        (let ((r pcx--x4)) (* 3 r r))
                      (funcall pcx--pcase-0)))
                (funcall pcx--pcase-0))))
           (t (funcall pcx--pcase-0))))
      (funcall pcx--pcase-0))))

(defun shape-sum (points)
  (let ((sum 0))
    (dolist (pcx--x0 points)
      (ignore (consp pcx--x0))
      (let* ((pcx--x1 (car-safe pcx--x0)) (pcx--x2 (cdr-safe pcx--x0)))
        (let ((x pcx--x1) (y pcx--x2)) (setq sum (+ sum x y)))))
    sum))

(defun shape-kind (token)
  (if (and (consp token) (eq (car token) 'rect))
      'rectangle
    (let ((n (and (numberp token) token)))
      (when n :non-exit)
      (if n 'number 'unknown))))

(provide 'shapes)
;;; shapes.el ends here
