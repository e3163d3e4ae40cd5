(calls (describe-item (my-make-item "a" 1)) (describe-item (my-make-match-item "b" 2 3)))
(each describe-item std)
