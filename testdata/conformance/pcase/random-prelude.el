;;; random-prelude.el --- helpers of the randomized pcase cases  -*- lexical-binding: t -*-
;; The predicates, guards and app functions of gen-random.el: each call is
;; recorded in `pcx-log' with its arguments, so that the number and order of
;; calls is compared along with the value.  `pcx-alt' is impure on purpose.

(defvar pcx-log nil "Calls of the current case, most recent first.")
(defvar pcx-alt-state nil "The state of `pcx-alt'.")
(setq text-quoting-style 'grave)

(defun pcx-p1 (x) (push (list 'p1 x) pcx-log) (or (integerp x) (consp x)))
(defun pcx-p2 (x) (push (list 'p2 x) pcx-log) (or (symbolp x) (vectorp x)))
(defun pcx-p3 (k x) (push (list 'p3 k x) pcx-log) (equal k x))
(defun pcx-alt (x) (push (list 'alt x) pcx-log) (setq pcx-alt-state (not pcx-alt-state)))
(defun pcx-guard (x) (push (list 'guard x) pcx-log) (not (memq x '(oa ob))))
(defun pcx-f (x) (push (list 'f x) pcx-log) (if (consp x) (car x) x))
(defun pcx-g (x) (push (list 'g x) pcx-log) x)
(defun pcx-h (k x) (push (list 'h k x) pcx-log) (cons k x))
(defun pcx-tick (x) (push (list 'tick x) pcx-log) x)
(defun pcx-val (x) (push (list 'val x) pcx-log) x)

(defun pcx-reset ()
  "Start a case: empty log, `pcx-alt' state reset (run.el calls it)."
  (setq pcx-log nil pcx-alt-state nil))
