(cond* (t (message "always"))
       ((zerop n) 'zero)
       (t 'nonzero))
