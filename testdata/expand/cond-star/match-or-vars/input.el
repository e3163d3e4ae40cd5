(cond* ((match* (or (list 'x v) (list 'y v)) form) v))
