(progn (setq n (1+ n)) (if (> n 10) 'big (message "n = %d" n)))
