(pcase x
  (_ 'all)
  ((bogus-head y) y))
(pcase x
  (_ 'all)
  ((or 1) 'not-reached))
