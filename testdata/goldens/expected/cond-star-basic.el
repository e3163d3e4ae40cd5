;;; cond-star-basic.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: cond-star-basic (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(if (consp x) (let ((a (car x)) (b (cdr x))) (list a b)))
