(pcase-setq a 1 b)
(pcase x 1)
(pcase x (`#s(r 1) 2))
(pcase-let (a) a)
