(pcase n
  ((pred (< 0 _ 10)) 'digit)
  (_ 'other))
