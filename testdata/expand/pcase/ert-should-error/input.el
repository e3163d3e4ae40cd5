;; ERT expands the form of should, should-not and should-error itself and
;; turns an expansion error into a run-time signal: such a form becomes
;; that signal (with a note), and a test of the error passes.
(require 'ert)
(defun pcx-se-run (x)
  (list (should-error (pcase-setq a 1 b) :type '(wrong-number-of-arguments))
        (should-error (list (pcase x 1)) :type 'wrong-type-argument)
        (should-error (pcase x ((or 1) 2)))
        (should-error (pcase x (`#s(r 1) 2)))
        (should-error (pcase-setq a) :type 'wrong-number-of-arguments)
        (should-error (pcase-let) :type 'wrong-number-of-arguments)
        (should (pcase x (`(,a . ,_) a) (_ t)))
        (should-not (pcase x ((pred stringp) t)))))
