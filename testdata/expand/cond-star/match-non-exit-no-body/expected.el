(let ((k (car entry)) (v (cdr entry))) (if (null k) 'none (list k v)))
