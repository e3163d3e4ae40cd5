(cond* ((match* (cons a b) entry) (message "a=%s" a) :non-exit)
       (t (list a b)))
