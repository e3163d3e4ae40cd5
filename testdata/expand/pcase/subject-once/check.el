(vars (stack nil (1 2)))
(produces open close other)
