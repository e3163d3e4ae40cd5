(cond* ((match* (list x x) pair) (list 'same x))
       ((match* (list x y) pair) (list 'different x y)))
