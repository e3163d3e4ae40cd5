(produces (1) (1 2) (1 2 3) nil 5 [1])
(calls (set-them) (set-them) (set-them) (set-them) (set-them) (set-them) d)
