(cond* ((match* (cons a b) x y) a))
