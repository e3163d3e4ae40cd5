;;; temporaries-hash.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: temporaries-hash (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=hash

(progn
  (ignore (consp pair))
  (let* ((#:x0 (car-safe pair)) (#:x1 (cdr-safe pair)))
    (ignore (consp #:x1))
    (let* ((#:x2 (car-safe #:x1)) (#:x3 (cdr-safe #:x1)))
      (ignore (null #:x3))
      (let ((a #:x0) (b #:x2)) (+ a b)))))
