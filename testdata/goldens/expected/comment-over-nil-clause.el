;;; comment-over-nil-clause.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: comment-over-nil-clause (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(if (consp style)
    (let ((pcx--x0 (car style)))
      (cond
       ((and (equal name pcx--x0) (consp (cdr style)))
        (let ((pcx--x1 (cdr style)))
          (if (null (cdr pcx--x1)) (let ((v (car pcx--x1))) (list 'named v)))))
       ;; a pair of nils
       ((and (null pcx--x0) (equal (cdr style) '(nil))) 'empty)))
  ;; Discard anything else.
  nil)
