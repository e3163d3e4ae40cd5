(vars (x std (quote 1) (1.5 7 "s" :k) (lit 3) (a (b 4)) (1 . 2) (1.5 7 "s") (a (b 4 5))))
