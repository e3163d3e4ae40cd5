(cond* ((match* (vector x y) point) (+ x y))
       ((match* (vector _ _ _) point) 'three))
