(vars (x std "s" (a "b")))
