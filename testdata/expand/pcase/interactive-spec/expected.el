;; The argument of interactive is code: pcase forms there are expanded;
;; the modes after it are symbols, not code.
(defvar pcx-is-arg nil)
(defun pcx-is-cmd (a b)
  (interactive (cond
                ((and (consp (cdr-safe pcx-is-arg))
                      (null (cdr (cdr pcx-is-arg))))
                 (let ((x (car pcx-is-arg)) (y (car (cdr pcx-is-arg))))
                   (list x y)))
                ((integerp pcx-is-arg) (list pcx-is-arg 0))
                (t (list nil nil)))
               emacs-lisp-mode)
  (list a b))
(defun pcx-is-spec ()
  (interactive (let ((a (car-safe pcx-is-arg)) (b (cdr-safe pcx-is-arg)))
                 (list a b)))
  nil)
