(cond* ((match* (list (pred stringp)) x) 1))
(cond* ((match* (setq y 1) x) 1))
(cond* ((match* (when y z) x) 1))
(cond* ((match* (nil y) x) 1))
