(defun dir (d)
  (cond
   ((eq d 'north) 0)
   ((eq d 'south) 180)
   (t (let ((pcx--x0 d)) (error "No clause matching `%S'" pcx--x0)))))
(let* ((pcx--val0 (read-kind)))
  (cond
   ((stringp pcx--val0) 'text)
   ((consp pcx--val0)
    (let* ((pcx--x0 (car-safe pcx--val0))) (let ((k pcx--x0)) k)))
   (t (let ((pcx--x1 pcx--val0)) (error "No clause matching `%S'" pcx--x1)))))
