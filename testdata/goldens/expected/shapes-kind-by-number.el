;;; shapes-kind-by-number.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: shapes-kind-by-number (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(defun shape-kind (token)
  (if (and (consp token) (eq (car token) 'rect))
      'rectangle
    (let ((n (and (numberp token) token)))
      (when n :non-exit)
      (if n 'number 'unknown))))
