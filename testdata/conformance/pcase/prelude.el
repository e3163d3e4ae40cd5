;;; prelude.el --- helpers for the pcase conformance cases  -*- lexical-binding: t -*-
;; Loaded before the cases are evaluated (cases.tsv, run.el).  Every case
;; starts with an empty log; the helpers below record their calls in it.

(require 'seq)
(require 'map)
(require 'rx)
(require 'cl-lib)
(setq text-quoting-style 'grave)

(defvar pcx-log nil
  "Tags of the logged calls of the current case, most recent first.")

(defun tick (tag &optional value)
  "Record TAG in `pcx-log' and return VALUE."
  (push tag pcx-log)
  value)

(defun pcx-f (x)
  "Identity, recording each call as `f'."
  (push 'f pcx-log)
  x)

(defun pcx-nil (_x)
  "Always nil, recording each call as `f'."
  (push 'f pcx-log)
  nil)

(defun pcx-g (x)
  "Identity, recording each call as `g'."
  (push 'g pcx-log)
  x)
