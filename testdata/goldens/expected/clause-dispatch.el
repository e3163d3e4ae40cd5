;;; clause-dispatch.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: clause-dispatch (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(cond
 ((eql x 1) 'one)
 ((stringp x) 'str)
 ((consp x)
  (let* ((pcx--x0 (car-safe x)) (pcx--x1 (cdr-safe x)))
    (let ((a pcx--x0) (b pcx--x1)) (+ a b))))
 (t 'other))
