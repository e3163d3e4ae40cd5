(cond
 ((consp x) 'cons)
 ((atom x) 'atom))
(cond
 ((memq x '(a b)) 1)
 ((eq x 'c) 2))
