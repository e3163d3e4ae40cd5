(pcase-exhaustive (f)
  ((pred integerp) 'int)
  (other (list 'other other)))
