;;; shapes-sum-by-line.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: shapes-sum-by-line (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(defun shape-sum (points)
  (let ((sum 0))
    (dolist (pcx--x0 points)
      (ignore (consp pcx--x0))
      (let* ((pcx--x1 (car-safe pcx--x0)) (pcx--x2 (cdr-safe pcx--x0)))
        (let ((x pcx--x1) (y pcx--x2)) (setq sum (+ sum x y)))))
    sum))
