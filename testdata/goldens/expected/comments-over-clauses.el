;;; comments-over-clauses.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: comments-over-clauses (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(defun report (x)
  (let* ((pcx--val0 (get-return-code x)))
    (cond
     ;; string
     ((stringp pcx--val0) (let ((msg pcx--val0)) (message "%s" msg)))

     ;; symbol
     ((eq pcx--val0 'success) (message "Done!"))
     ((eq pcx--val0 'would-block) (message "Sorry, can't do it now"))

     ;; default
     (t (let ((code pcx--val0)) (message "Unknown return code %S" code))))))
