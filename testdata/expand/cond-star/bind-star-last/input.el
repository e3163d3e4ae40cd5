(list (cond* ((bind* (x (f)) y) (g x y)))
      (cond* ((bind* (x (f))))))
