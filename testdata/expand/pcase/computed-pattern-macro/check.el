(calls (ranges '(1 . 2)) (ranges '(nil . 3)) (ranges '(a . 3)) (ranges 'red) (ranges 'blue))
(each ranges std)
