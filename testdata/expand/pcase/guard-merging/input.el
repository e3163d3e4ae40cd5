(defun pick (x)
  (pcase x
    ((and 1 (pred p2)) 'one-p2)
    ((pred p2) 'p2)
    ((and (guard (ready-p)) 0) 'zero)
    ((guard (ready-p)) 'ready)
    (_ 'none)))
