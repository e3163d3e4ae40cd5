(cond* ((match* `[,a ,b] v) (list a b))
       ((match* `[,a c d] v) a))
