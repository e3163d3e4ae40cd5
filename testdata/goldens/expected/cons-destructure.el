;;; cons-destructure.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: cons-destructure (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(if (consp x) (let ((a (car x)) (b (cdr x))) (+ a b)) 'other)
