(cond* ((pcase* `(,a . ,(pred numberp)) x) (list 'num a))
       ((pcase* `(,k ,v) x))
       ((eq k 'key) v))
