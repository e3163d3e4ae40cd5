(cond ((consp x) 'cons) ((atom x) 'atom))
(cond ((memq x '(b a)) 1) ((eq x 'c) 2))
