(defun dir (d)
  (cond
   ((eq d 'north) 0)
   ((eq d 'south) 180)
   (t (error "No clause matching `%S'" d))))
(let ((pcx--val0 (read-kind)))
  (cond
   ((stringp pcx--val0) 'text)
   ((consp pcx--val0) (let ((k (car pcx--val0))) k))
   (t (error "No clause matching `%S'" pcx--val0))))
