;;; cond-star-basic.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: cond-star-basic (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(let ((pcx--d0 x))
  (if (consp pcx--d0) (let* ((b (cdr pcx--d0)) (a (car pcx--d0))) (list a b))))
