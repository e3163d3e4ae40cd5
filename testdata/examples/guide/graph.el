(pcase x
  (`(add ,a ,b) (+ a b))
  (`(neg ,a) (- a))
  ((or 'zero `(zero)) 0)
  (_ 'other))
