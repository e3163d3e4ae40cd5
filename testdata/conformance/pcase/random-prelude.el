;;; random-prelude.el --- helpers of the randomized pcase cases  -*- lexical-binding: t -*-
;; The predicates, guards and app functions of gen-random.el: each call is
;; recorded in `pcx-log' with its arguments, so that the number and order of
;; calls is compared along with the value.  `pcx-alt' is impure on purpose.

(defvar pcx-log nil "Calls of the current case, most recent first.")
(defvar pcx-alt-state nil "The state of `pcx-alt'.")
(defvar pcx-running nil "Non-nil while a case is evaluated (run.el, gen-random.el).")
(setq text-quoting-style 'grave)

(defun pcx-note (entry)
  "Record ENTRY in `pcx-log'.  Outside an evaluation, signal an error:
these helpers stand for a file's own functions, which are not defined
while the file is compiled, and Emacs 30 calls an app function on later
clauses' constants while it compiles (pcase.md 3.7)."
  (unless pcx-running
    (error "%S is not defined while the code is compiled" (car entry)))
  (push entry pcx-log))

(defun pcx-p1 (x) (pcx-note (list 'p1 x)) (or (integerp x) (consp x)))
(defun pcx-p2 (x) (pcx-note (list 'p2 x)) (or (symbolp x) (vectorp x)))
(defun pcx-p3 (k x) (pcx-note (list 'p3 k x)) (equal k x))
(defun pcx-alt (x) (pcx-note (list 'alt x)) (setq pcx-alt-state (not pcx-alt-state)))
(defun pcx-guard (x) (pcx-note (list 'guard x)) (not (memq x '(oa ob))))
(defun pcx-f (x) (pcx-note (list 'f x)) (if (consp x) (car x) x))
(defun pcx-g (x) (pcx-note (list 'g x)) x)
(defun pcx-h (k x) (pcx-note (list 'h k x)) (cons k x))
(defun pcx-tick (x) (pcx-note (list 'tick x)) x)
(defun pcx-val (x) (pcx-note (list 'val x)) x)

(defun pcx-reset ()
  "Start a case: empty log, `pcx-alt' state reset (run.el calls it)."
  (setq pcx-log nil pcx-alt-state nil))
