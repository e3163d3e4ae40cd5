;;; prelude.el --- helpers for the cond* conformance cases  -*- lexical-binding: t -*-
;; Loaded before the cases are evaluated (cases.tsv, run.sh).  Every case
;; starts with an empty log; `tick' records that a form was evaluated.

(defvar pcx-log nil
  "Tags of the `tick' calls of the current case, most recent first.")

(defun tick (tag &optional value)
  "Record TAG in `pcx-log' and return VALUE."
  (push tag pcx-log)
  value)

(defun pcx-tickp (_x)
  "A predicate that is always true and records each call as `p'."
  (push 'p pcx-log)
  t)

(defun pcx-even (n)
  "Non-nil if N is an even integer."
  (and (integerp n) (= 0 (% n 2))))

(defvar pcx-datum nil
  "A special variable that `pcx-clobber' assigns.")

(defun pcx-clobber (_x)
  "Set `pcx-datum' to the symbol `clobbered' and return t."
  (setq pcx-datum 'clobbered)
  t)
