;;; temporaries-hash.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: temporaries-hash (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=hash

(let ((a (car-safe pair)) (b (car-safe (cdr-safe pair)))) (+ a b))
