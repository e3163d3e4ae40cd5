(defun pos (x)
  (cond
   ((let ((n x)) (> n 0))
    (let* ((pcx--x0 (let ((n x)) (* n n))) (n x) (sq pcx--x0))
      (ignore n)
      (list n sq)))
   ((eql x 0) (if (ready-p) 'zero-ready 'neither))
   ((ready-p) 'ready)
   (t 'neither)))
