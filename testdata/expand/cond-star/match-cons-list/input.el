(cond* ((match* (cons 'add (list a b)) expr) (+ a b))
       ((match* (list 'neg x) expr) (- x))
       ((match* (cons op _) expr) (error "Unknown operator %s" op)))
