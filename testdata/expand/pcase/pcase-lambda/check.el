(calls (first-two '(1 2)) (first-two '(1 2 3) 4) (first-two '(1) 'a) (first-two nil)
       (first-two 5))
