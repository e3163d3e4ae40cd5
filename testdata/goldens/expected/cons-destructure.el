;;; cons-destructure.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: cons-destructure (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(if (consp x)
    (let* ((pcx--x0 (car-safe x)) (pcx--x1 (cdr-safe x)))
      (let ((a pcx--x0) (b pcx--x1)) (+ a b)))
  'other)
