(pcase x
  (1 'one)
  (t 'other))
