;;; temporaries-circle.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: temporaries-circle (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=circle

(let ((a (car-safe pair)) (b (car-safe (cdr-safe pair)))) (+ a b))
