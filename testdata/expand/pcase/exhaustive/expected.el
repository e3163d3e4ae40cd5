(defun dir (d)
  (cond
   ((eq d 'north) 0)
   ((eq d 'south) 180)
   (t (let ((pcx--x0 d)) (error "No clause matching `%S'" pcx--x0)))))
