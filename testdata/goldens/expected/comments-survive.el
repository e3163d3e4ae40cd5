;;; comments-survive.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: comments-survive (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(defun kind (x)
  ;; Small numbers.
  (if (integerp x)
      ;; Tag it.
                                        ; exact
      (list 'int x)
    'other))
