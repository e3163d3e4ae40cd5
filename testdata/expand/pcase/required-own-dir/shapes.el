;;; shapes.el --- structs and a pattern macro that input.el requires  -*- lexical-binding: t -*-

(require 'cl-lib)

(defmacro shapes--defstruct (name &rest slots)
  "Define the struct NAME with SLOTS through a wrapper, as xref.el does."
  (declare (indent 1))
  `(cl-defstruct ,name ,@slots))

(shapes--defstruct (shapes-circle (:constructor shapes-circle (r)))
  "A circle of radius R."
  r)

(cl-defstruct shapes-rect w h)

(cl-defstruct (shapes-seg (:type list) :named) from to)

(defun shapes--positive (v)
  "A pattern matching a positive integer, bound to V."
  `(and (pred integerp) ,v (guard (> ,v 0))))

(pcase-defmacro shapes-pos (v)
  "Match a positive integer and bind it to V."
  (shapes--positive v))

(provide 'shapes)
