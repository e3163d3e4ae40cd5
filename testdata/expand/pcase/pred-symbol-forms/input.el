(pcase x
  ((pred not) 'false)
  ((pred (not atom)) 'cons)
  ((pred #'integerp) 'never))
