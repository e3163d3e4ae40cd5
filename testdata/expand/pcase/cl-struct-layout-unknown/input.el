;;; input.el --- a struct whose layout pcexpand does not see: slots read at run time  -*- lexical-binding: t -*-

(defun area (r)
  (pcase r
    ((cl-struct rect (w (and w (pred numberp))) h) (* w h))
    ((cl-struct rect) 'bad-rect)
    (_ 0)))
