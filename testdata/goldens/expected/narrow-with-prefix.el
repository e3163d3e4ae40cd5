;;; narrow-with-prefix.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: narrow-with-prefix (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=40 gensyms=rename gensym-prefix=my--

(if (consp x)
    (let ((a (car x)) (b (cdr x)))
      (+ a b))
  'other)
