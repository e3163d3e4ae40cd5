;;; shapes-kind-by-number.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: shapes-kind-by-number (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(defun shape-kind (token)
  (let ((pcx--d0 token))
    (if (and (consp pcx--d0) (eq 'rect (car pcx--d0)))
        'rectangle
      (let ((pcx--init0 (and (numberp token) token)))
        (let* ((n pcx--init0))
          (when pcx--init0 :non-exit)
          (if n 'number 'unknown))))))
