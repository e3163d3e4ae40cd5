(list (pcase (tick x)) (pcase x (1)) (pcase x ((and) 'e)))
(pcase x
  ('nil 'is-nil)
  (`() 'never)
  ((or 'nil 'c) 'never2))
