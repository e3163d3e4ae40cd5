(pcase x
  ((pred) 'never))
