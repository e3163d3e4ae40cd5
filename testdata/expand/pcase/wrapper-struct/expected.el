;;; input.el --- structs defined through a wrapper macro, as in xref.el  -*- lexical-binding: t -*-

(defmacro my--defstruct (name &rest fields)
  (declare (indent 1))
  `(cl-defstruct ,(if (>= emacs-major-version 27)
                      name
                    (remq (assq :noinline name) name))
     ,@fields))

(my--defstruct (my-item
                (:constructor my-make-item (summary location))
                (:noinline t))
  "An item: a summary and a location."
  (summary nil :documentation "What it is.")
  (location nil :documentation "Where it is."))

(my--defstruct (my-match-item
                (:include my-item)
                (:constructor my-make-match-item (summary location length))
                (:noinline t))
  "A match of some length."
  length)

(defun describe-item (i)
  (cond
   ((cl-typep i 'my-match-item)
    (let ((summary (aref i 1)) (length (aref i 3)))
      (list 'match summary length)))
   ((cl-typep i 'my-item)
    (let ((summary (aref i 1)) (location (aref i 2)))
      (list 'item summary location)))
   (t 'none)))
