;;; comments-survive.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: comments-survive (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(defun kind (x)
  (if (integerp x)
      ;; Small numbers.
      ;; Tag it.
      (list 'int x)                     ; exact
    'other))
