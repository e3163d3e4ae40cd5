(pcase-let ((`(,a ,b) pair)) (+ a b))
