;;; input.el --- a struct whose layout pcexpand does not see: slots read at run time  -*- lexical-binding: t -*-

(defun area (r)
  (if (cl-typep r 'rect)
      (let* ((pcx--x0 (cl-struct-slot-value 'rect 'w r)))
        (if (numberp pcx--x0)
            (let* ((pcx--x1 (cl-struct-slot-value 'rect 'h r)))
              (let ((w pcx--x0) (h pcx--x1)) (* w h)))
          'bad-rect))
    0))
