(cond* ((eq x 1) 'one)
       oops)
