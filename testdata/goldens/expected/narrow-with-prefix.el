;;; narrow-with-prefix.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: narrow-with-prefix (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=40 gensyms=rename gensym-prefix=my--

(if (consp x)
    (let* ((my--x0 (car-safe x))
           (my--x1 (cdr-safe x)))
      (let ((a my--x0) (b my--x1))
        (+ a b)))
  'other)
