;; ERT expands the form of should, should-not and should-error itself and
;; turns an expansion error into a run-time signal: such a form becomes
;; that signal (with a note), and a test of the error passes.
(require 'ert)
(defun pcx-se-run (x)
  (list (should-error (signal 'wrong-number-of-arguments
                              '(pcase-setq
                                3)) :type '(wrong-number-of-arguments))
        (should-error (signal 'wrong-type-argument
                              '(listp 1)) :type 'wrong-type-argument)
        (should-error (signal 'error '("Please avoid it")))
        (should-error (signal 'error '("Unknown QPAT: #s(r 1)")))
        (should-error (signal 'wrong-number-of-arguments
                              '((2 . 2) 1)) :type 'wrong-number-of-arguments)
        (should-error (signal 'wrong-number-of-arguments
                              '((1 . 1) 0)) :type 'wrong-number-of-arguments)
        (should (if (consp x)
                    (let* ((pcx--x0 (car-safe x))) (let ((a pcx--x0)) a))
                  t))
        (should-not (if (stringp x) t))))
