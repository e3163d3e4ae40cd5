;;; input.el --- a struct whose layout pcexpand does not see: slots read at run time  -*- lexical-binding: t -*-

(defun area (r)
  (if (cl-typep r 'rect)
      (let ((pcx--x0 (cl-struct-slot-value 'rect 'w r)))
        (if (numberp pcx--x0)
            (let ((w pcx--x0) (h (cl-struct-slot-value 'rect 'h r))) (* w h))
          'bad-rect))
    0))
