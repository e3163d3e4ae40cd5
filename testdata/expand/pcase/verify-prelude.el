;;; verify-prelude.el --- helpers the pcase goldens call  -*- lexical-binding: t -*-
;; Loaded by verify.el before each side of each case.  Every helper records
;; its calls in `pcx-log' (with its arguments), so that the number and order
;; of predicate, guard and app calls is compared along with the values.
;; The argument-less ones return the values of the case's `produces'
;; directive (default: the standard values) in turn, the same turn on both
;; sides, since `pcx-verify-reset' starts every side.

(require 'rx)
(require 'cl-lib)
(setq text-quoting-style 'grave)

(defvar pcx-log nil "Calls of the current evaluation, most recent first.")
(defvar pcx-verify--turn 0 "How many values the argument-less helpers gave.")
(defvar pcx-verify-values)
(defvar pcx-verify-produced nil
  "The values the argument-less helpers return in turn (a `produces' directive).")

(defun pcx-verify-reset ()
  "Start a side: the argument-less helpers start again from the first value."
  (setq pcx-verify--turn 0))

(defun pcx-verify-next (tag)
  "Record TAG and return the next standard value."
  (push tag pcx-log)
  (prog1 (nth (% pcx-verify--turn (length pcx-verify-produced)) pcx-verify-produced)
    (setq pcx-verify--turn (1+ pcx-verify--turn))))

(defmacro pcx-verify-deflog (name args doc &rest body)
  "Define NAME like `defun', recording (NAME ARGS...) in `pcx-log' first."
  (declare (indent 2) (doc-string 3))
  `(defun ,name ,args ,doc
          (push (list ',name ,@(remq '&optional args)) pcx-log)
          ,@body))

;; predicates
(pcx-verify-deflog p1 (v) "Numbers." (numberp v))
(pcx-verify-deflog p2 (v) "Integers at least 2." (and (integerp v) (>= v 2)))
(pcx-verify-deflog p3 (v) "Non-nil symbols." (and v (symbolp v)))
(pcx-verify-deflog p4 (v) "Sequences of length 2." (and (sequencep v) (= (length v) 2)))
(pcx-verify-deflog q1 (v) "Strings." (stringp v))
(pcx-verify-deflog q2 (v) "Conses." (consp v))
(pcx-verify-deflog q3 (v) "Vectors or nil." (or (vectorp v) (null v)))
(pcx-verify-deflog q4 (v) "Odd integers." (and (integerp v) (cl-oddp v)))
(pcx-verify-deflog p (v) "Non-nil." (and v t))
(pcx-verify-deflog q (v) "Integers." (integerp v))
(pcx-verify-deflog small-p (v) "Integers below 3." (and (integerp v) (< v 3)))
(pcx-verify-deflog ok-p (k v) "K eq V." (eq k v))
(let ((state nil))
  (pcx-verify-deflog ready-p () "True every other call (impure)."
    (setq state (not state))))
;; functions for app
(pcx-verify-deflog f (v) "Identity." v)
(pcx-verify-deflog g (v) "Identity." v)
(pcx-verify-deflog h (v) "The car of a cons, else V." (if (consp v) (car v) v))
(pcx-verify-deflog len (v) "Length of a sequence, else nil." (and (sequencep v) (length v)))
(pcx-verify-deflog tick (v) "Identity (a guard or a let expression)." v)
;; argument-less producers
(defun next-token () "The next value." (pcx-verify-next '(next-token)))
(defun read-kind () "The next value." (pcx-verify-next '(read-kind)))
(defun get-list () "The next value." (pcx-verify-next '(get-list)))
(defun get-value () "The next value." (pcx-verify-next '(get-value)))
(pcx-verify-deflog log-it () "Nothing." 'logged)
