(pcase v
  (1 'one)
  ('1.5 'float)
  ("s" 'string)
  ('(1 2) 'list)
  ('nil 'nil)
  (:key 'keyword)
  (1180591620717411303424 'big)
  (?a 'char))
