(defun pos (x)
  (pcase x
    ((and n (guard (> n 0)) (let sq (* n n))) (list n sq))
    ((and 0 (guard (ready-p))) 'zero-ready)
    ((guard (ready-p)) 'ready)
    (_ 'neither)))
