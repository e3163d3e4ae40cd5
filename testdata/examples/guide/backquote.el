(pcase x
  (`(add ,a ,b) (+ a b))
  (`(neg ,a) (- a))
  ((or 'zero 0) 0)
  (_ (error "bad: %S" x)))
