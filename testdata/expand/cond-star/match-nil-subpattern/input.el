(cond* ((match* (cons x nil) l) x)
       ((match* (cons x) l) x))
