;;; input.el --- structs and a pattern macro of a file in the same directory  -*- lexical-binding: t -*-

(require 'shapes)

(defun measure (s)
  (pcase s
    ((cl-struct shapes-rect (w (shapes-pos w)) (h (shapes-pos h))) (* w h))
    ((cl-struct shapes-circle r) (list 'circle r))
    ((cl-struct shapes-seg from to) (list 'seg from to))
    ((shapes-pos n) (list 'positive n))
    (_ 'unknown)))
