(cond* ((pcase* `(,a) x) (message "%s" a) :non-exit)
       (t 'done))
