(vars (x 1))
