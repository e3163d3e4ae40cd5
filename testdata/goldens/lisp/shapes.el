;;; shapes.el --- input of the golden cases  -*- lexical-binding: t -*-

;; Geometry with the pcase family and cond*: each top-level form is
;; selected by some case of ../manifest.yaml.

(require 'cl-lib)

(cl-defstruct (shape-point (:type vector) :named) x y)

(pcase-defmacro shape-pos (v)
  `(and (pred numberp) ,v (guard (> ,v 0))))

(defun shape-area (shape)
  "The area of SHAPE, a list (KIND SIZE...)."
  (pcase shape
    (`(rect ,(shape-pos w) ,(shape-pos h)) (* w h))
    (`(square ,s) (* s s))
    ;; Circles are approximate.
    (`(circle ,r) (* 3 r r))
    ((cl-struct shape-point x y) (ignore x y) 0)
    (_ (error "Not a shape: %S" shape))))

(defun shape-sum (points)
  (let ((sum 0))
    (pcase-dolist (`(,x . ,y) points)
      (setq sum (+ sum x y)))
    sum))

(defun shape-kind (token)
  (cond* ((match* (cons 'rect _) token) 'rectangle)
         ((bind* (n (and (numberp token) token))) :non-exit)
         (n 'number)
         (t 'unknown)))

(provide 'shapes)
;;; shapes.el ends here
