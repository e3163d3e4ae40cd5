;;; temporaries-circle.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: temporaries-circle (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=circle

(progn
  (ignore (consp pair))
  (let* ((#1=#:x0 (car-safe pair)) (#2=#:x1 (cdr-safe pair)))
    (ignore (consp #2#))
    (let* ((#3=#:x2 (car-safe #2#)) (#4=#:x3 (cdr-safe #2#)))
      (ignore (null #4#))
      (let ((a #1#) (b #3#)) (+ a b)))))
