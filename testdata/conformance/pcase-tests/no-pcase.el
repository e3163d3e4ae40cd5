;;; no-pcase.el --- make the pcase family unusable  -*- lexical-binding: t -*-

;; Loaded before an expanded file (run.sh): the libraries the tests use
;; are loaded, then every pcase-family macro and cond* becomes a macro
;; that signals.  An expansion that left such a form behind, or that
;; relied on Emacs expanding one at run time, fails instead of passing
;; with Emacs's own pcase.  (Compiled code of Emacs's libraries is not
;; affected: its pcase forms were expanded when it was compiled.)

(require 'ert)
(require 'cl-lib)
(require 'rx)
(require 'pcase)

(dolist (head '(pcase pcase-exhaustive pcase-let pcase-let* pcase-setq
                pcase-dolist pcase-lambda cond*))
  (let ((name head))
    (defalias head
      (cons 'macro (lambda (&rest _)
                     (error "`%s' used in code that should have none" name))))))

;;; no-pcase.el ends here
