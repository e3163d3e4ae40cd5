(pcase (next-token)
  ('open (push 'open stack))
  ('close (pop stack)))
(pcase 'literal
  ('literal t))
