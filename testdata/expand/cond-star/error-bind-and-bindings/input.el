(cond* ((bind-and* (a 1) b) a))
(cond* ((bind-and* ((car x))) 'yes))
