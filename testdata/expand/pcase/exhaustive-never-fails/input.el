(pcase-exhaustive (get-value)
  ((pred integerp) 'int)
  (other (list 'other other)))
