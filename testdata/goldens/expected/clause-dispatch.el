;;; clause-dispatch.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: clause-dispatch (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(cond
 ((eql x 1) 'one)
 ((stringp x) 'str)
 ((consp x) (let ((a (car x)) (b (cdr x))) (+ a b)))
 (t 'other))
