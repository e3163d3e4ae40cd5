(let ((y x))
  (cond
   ((and (progn (setq y 'changed) nil) (eql y 1)) 'one)
   ((eq y 'changed) 'reread)
   (t 'kept)))
(let ((y x))
  (let ((pcx--val0 (identity y)))
    (cond
     ((and (progn (setq y 'changed) nil) (eql pcx--val0 1)) 'one)
     ((eq pcx--val0 'changed) 'reread)
     (t 'kept))))
(if (eq :k :k) 'keyword)
