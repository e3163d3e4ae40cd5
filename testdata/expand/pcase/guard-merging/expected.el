(defun pick (x)
  (cond
   ((eql x 1) (cond ((p2 x) 'one-p2) ((ready-p) 'ready) (t 'none)))
   ((p2 x) 'p2)
   ((ready-p) (if (eql x 0) 'zero 'ready))
   (t 'none)))
