(pcase x
  ((app f _) 'x))
(pcase x
  ((and (let _ (tick 'never)) (app g (app h 1))) 'one)
  (_ 'none))
