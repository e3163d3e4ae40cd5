(cond* ((match* (list a b) (cond* ((consp x) x) (t (list x x))))
        (cond* ((eq a b) 'same)
               (t 'different)))
       (t 'none))
