(vars (x std (k . 1)))
