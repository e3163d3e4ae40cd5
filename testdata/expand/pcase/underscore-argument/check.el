(vars (n std))
