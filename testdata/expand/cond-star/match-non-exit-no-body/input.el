(cond* ((match* `(,k . ,v) entry))
       ((null k) 'none)
       (t (list k v)))
