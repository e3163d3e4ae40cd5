(pcase-exhaustive k
  ('a 1)
  ('b 2))
