(calls (combine '(k . v) 1 [o] 1 2) (combine '(k . v) 1) (combine 5 2 '(1))
       (combine '(k) 2 [a b] 3))
