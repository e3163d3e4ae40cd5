(cond* ((setq n (1+ n)))
       ((> n 10) 'big)
       ((message "n = %d" n)))
