(cond* ((match* `[,a ,@b] v) a))
(cond* ((match* `(,a (\, b c)) v) a))
(cond* ((match* (apply #'vector x) v) x))
