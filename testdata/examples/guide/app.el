(pcase s
  ((and (pred stringp) (app length (pred (< 3)))) 'long)
  ((and (pred stringp) (app length 0)) 'empty))
