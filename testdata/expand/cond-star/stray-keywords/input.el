(progn (match* x y) (bind* (a 1)))
