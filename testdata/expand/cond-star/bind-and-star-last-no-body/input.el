(cond* ((bind-and* (x (f)) (y (g x)))))
