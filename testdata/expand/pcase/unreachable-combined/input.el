(pcase x
  ((pred consp) 'cons)
  ((pred atom) 'atom)
  (`(1) 'one))
(pcase x
  ((or 'a 'b) 1)
  ('c 2)
  ((or 'a 'c) 3))
