(cond* ((bind*) (message "x")))
(cond* ((eq x 1) 1)
       ((bind*)))
