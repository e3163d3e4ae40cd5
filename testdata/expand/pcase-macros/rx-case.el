;;; rx-case.el --- what Emacs's rx gives for one row of rx-forms.txt  -*- lexical-binding: t -*-

;; Loaded by gen-rx-cases.el (which writes rx-cases.tsv) and by
;; check-cases.el (which recomputes it).  A row is one of
;;   RX                      the regexp expression of the `rx' pattern macro
;;                           (rx--to-expr) for RX, with the rx-define
;;                           definitions of the rows before it
;;   (rx-let BINDINGS RX)    the same with BINDINGS as local definitions, as
;;                           an `rx' pattern inside (rx-let BINDINGS ...) sees
;;                           them (the :rx-locals of the macro environment);
;;                           RX may be an rx-let row itself (nested scopes)
;;   (rx-define NAME [ARGS] RX)  defines NAME for the rows after it: `defined'
;; An error gives ERROR <TAB> its message, control characters in it written
;; as \OOO.

(require 'rx)

(defun rx-case--expr (form locals)
  "rx--to-expr of FORM with the local definitions LOCALS, where FORM may be
an rx-let row (its bindings then come before LOCALS, as a nested rx-let's do)."
  (pcase form
    (`(rx-let ,bindings ,rx)
     (rx-case--expr rx (append (mapcar #'rx--make-named-binding bindings) locals)))
    (_ (let ((macroexpand-all-environment (list (cons :rx-locals locals))))
         (rx--to-expr form)))))

(defun rx-case--escape (message)
  "MESSAGE with its control characters written \\OOO (one line, no tab)."
  (replace-regexp-in-string "[\0-\37\177]"
                            (lambda (c) (format "\\%03o" (aref c 0)))
                            message t t))

(defun rx-case-result (form)
  "The expected column of the row FORM, as a string."
  (let ((text-quoting-style 'grave))
    (condition-case err
        (if (eq (car-safe form) 'rx-define)
            (progn (eval form t) "defined")
          (let ((expr (rx-case--expr form nil))
                (print-escape-newlines t)
                (print-escape-control-characters t))
            (prin1-to-string expr)))
      (error (concat "ERROR\t" (rx-case--escape (error-message-string err)))))))
