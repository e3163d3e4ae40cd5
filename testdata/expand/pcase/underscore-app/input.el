(pcase x
  ((and (pred numberp) (app (+ 1 _) 6)) 'five)
  ((pred (memq _ '(a b))) 'a-or-b)
  ((and (pred consp) (app (nth 1 _) (and second (pred symbolp)))) (list 'second second))
  ((and (pred numberp) (app (not (< _ 3)) r)) (list 'small-p r)))
