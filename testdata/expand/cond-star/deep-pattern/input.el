(cond* ((match* (list 'if (and test (cons _ _)) (or (list 'progn body) body) else) form)
        (list test body else)))
