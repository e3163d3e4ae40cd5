;;; dump.el --- input of the --dump goldens  -*- lexical-binding: t -*-

;; Shared tests and shared leaves: the decision DAG tests (consp x) once.
(defun dump-shape (x)
  (pcase x
    (`(add ,a ,b) (+ a b))
    (`(neg ,a) (- a))
    ((or 'zero `(zero)) 0)
    ((and (pred integerp) (guard (> x 0))) x)
    (_ (error "Bad shape %S" x))))

;; One section per destructured pattern.
(defun dump-pair (p)
  (pcase-let* ((`(,k . ,v) p)
               ((or `[,w] w) v))
    (list k w)))

;; cond* is not compiled through the decision DAG.
(defun dump-first (l) (cond* ((match* (cons a _) l) a) (t nil)))
