(same-as 0 (pcase x
             ((and (pred numberp) (app (lambda (v) (+ 1 v)) 6)) 'five)
             ((pred (lambda (v) (memq v '(a b)))) 'a-or-b)
             ((and (pred consp) (app (lambda (v) (nth 1 v)) (and second (pred symbolp))))
              (list 'second second))
             ((and (pred numberp) (app (lambda (v) (not (< v 3))) r)) (list 'small-p r))))
