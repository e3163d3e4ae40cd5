(cond* ((match* (list) x) 1))
(cond* ((match* (cons a (or)) x) 1))
(cond* ((match* (and) x) 1))
(cond* ((match* `(k ,(vector)) x) 1))
