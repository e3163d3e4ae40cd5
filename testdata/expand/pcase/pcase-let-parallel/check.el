(calls (swap-ish '(1 . 2) '(3 . 4)) (swap-ish nil 5) (swap-ish '(a) '(b c)))
