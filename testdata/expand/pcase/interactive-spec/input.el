;; The argument of interactive is code: pcase forms there are expanded;
;; the modes after it are symbols, not code.
(defvar pcx-is-arg nil)
(defun pcx-is-cmd (a b)
  (interactive (pcase pcx-is-arg
                 (`(,x ,y) (list x y))
                 ((pred integerp) (list pcx-is-arg 0))
                 (_ (list nil nil)))
               emacs-lisp-mode)
  (list a b))
(defun pcx-is-spec ()
  (interactive (pcase-let ((`(,a . ,b) pcx-is-arg)) (list a b)))
  nil)
