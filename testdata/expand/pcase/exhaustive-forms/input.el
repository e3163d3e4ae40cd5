(pcase-exhaustive x)
(pcase-exhaustive (list x "b")
  ((pred stringp) 1))
