(pcase x ((or (pred p) (and)) 1))
