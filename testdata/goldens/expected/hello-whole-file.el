;;; hello-whole-file.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: hello-whole-file (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

;;; hello.el --- a small example for pcexpand  -*- lexical-binding: t -*-

;; pcexpand replaces the `pcase' form below by plain Emacs Lisp and keeps
;; everything else, this comment included, exactly as it is.

(defun hello-describe (x)
  "Say what kind of thing X is."
  (cond
   ((integerp x)
    (if (< x 10)
        ;; Small numbers first.
        "a small number"
      "a number"))
   ((stringp x) (format "the string %S" x))
   ((consp x)
    (let* ((pcx--x0 (car-safe x)) (pcx--x1 (cdr-safe x)))
      (let ((a pcx--x0) (b pcx--x1)) (format "a pair of %S and %S" a b))))
   (t "something else")))                ; anything

(provide 'hello)
;;; hello.el ends here
