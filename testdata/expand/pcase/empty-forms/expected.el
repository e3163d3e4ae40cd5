(list (progn (tick x) nil) (if (eql x 1) nil) 'e)
(cond
 ((null x) 'is-nil)
 ((eq x 'c) 'never2))
