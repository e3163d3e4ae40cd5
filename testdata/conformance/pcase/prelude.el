;;; prelude.el --- helpers for the pcase conformance cases  -*- lexical-binding: t -*-
;; Loaded before the cases are evaluated (cases.tsv, run.el).  Every case
;; starts with an empty log; the helpers below record their calls in it.

(require 'seq)
(require 'map)
(require 'rx)
(require 'cl-lib)
(setq text-quoting-style 'grave)

;; Those libraries load byte-opt, whose side-effect-free facts make
;; Emacs's pcase evaluate predicates on constants while it expands
;; (pcase.md 3.4).  The reference is a bare emacs -Q, which has not loaded
;; it, and pcexpand evaluates no predicate: the facts are removed.
(mapatoms (lambda (s)
            (when (get s 'side-effect-free) (put s 'side-effect-free nil))
            (when (get s 'pure) (put s 'pure nil))))

(defvar pcx-log nil
  "Tags of the logged calls of the current case, most recent first.")

(defvar pcx-running nil "Non-nil while a case is evaluated (run.el).")

(defun pcx-note (tag)
  "Record TAG in `pcx-log'.  Outside an evaluation, signal an error: the
helpers stand for a file's own functions, which are not defined while
the file is compiled (Emacs 30 calls app functions on constants then)."
  (unless pcx-running
    (error "%S is not defined while the code is compiled" tag))
  (push tag pcx-log))

(defun tick (tag &optional value)
  "Record TAG in `pcx-log' and return VALUE."
  (pcx-note tag)
  value)

(defun pcx-f (x)
  "Identity, recording each call as `f'."
  (pcx-note 'f)
  x)

(defun pcx-nil (_x)
  "Always nil, recording each call as `f'."
  (pcx-note 'f)
  nil)

(defun pcx-g (x)
  "Identity, recording each call as `g'."
  (pcx-note 'g)
  x)
