(let ((y x))
  (pcase y
    ((and (guard (progn (setq y 'changed) nil)) 1) 'one)
    ('changed 'reread)
    (_ 'kept)))
(let ((y x))
  (pcase (identity y)
    ((and (guard (progn (setq y 'changed) nil)) 1) 'one)
    ('changed 'reread)
    (_ 'kept)))
(pcase :k
  (:k 'keyword))
