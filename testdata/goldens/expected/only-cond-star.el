;;; only-cond-star.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: only-cond-star (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename only=cond*

(let ((pcx--d0 x))
  (if (consp pcx--d0)
      (let* ((v (cdr pcx--d0)) (k (car pcx--d0))) (pcase v ('a k) (_ v)))))
