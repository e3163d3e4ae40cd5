(cond* ((match* `(add ,x ,y) e) (+ x y))
       ((match* `(,op ,x . ,rest) e) (list op x rest))
       ((match* `(call ,f ,@args) e) (apply f args))
       ((match* `(k 1 2) e) 'constant))
