(cond* ((match* (or (cons a b) c) form) (list a b c)))
