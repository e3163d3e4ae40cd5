(cond* ((match* (cons a b)) a))
