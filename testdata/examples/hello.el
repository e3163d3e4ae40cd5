;;; hello.el --- a small example for pcexpand  -*- lexical-binding: t -*-

;; pcexpand replaces the `pcase' form below by plain Emacs Lisp and keeps
;; everything else, this comment included, exactly as it is.

(defun hello-describe (x)
  "Say what kind of thing X is."
  (pcase x
    ;; Small numbers first.
    ((and (pred integerp) (guard (< x 10))) "a small number")
    ((pred integerp) "a number")
    ((pred stringp) (format "the string %S" x))
    (`(,a . ,b) (format "a pair of %S and %S" a b))
    (_ "something else")))                ; anything

(provide 'hello)
;;; hello.el ends here
