;;; only-cond-star.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: only-cond-star (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename only=cond*

(if (consp x) (let ((k (car x)) (v (cdr x))) (pcase v ('a k) (_ v))))
