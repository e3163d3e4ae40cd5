(pcase x
  ('a 1)
  (other (list other))
  ('b 2))
