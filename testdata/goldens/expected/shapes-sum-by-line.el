;;; shapes-sum-by-line.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: shapes-sum-by-line (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(defun shape-sum (points)
  (let ((sum 0))
    (dolist (pcx--x0 points)
      (let ((x (car-safe pcx--x0)) (y (cdr-safe pcx--x0)))
        (setq sum (+ sum x y))))
    sum))
