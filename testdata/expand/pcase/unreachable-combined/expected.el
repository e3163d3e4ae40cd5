(cond ((consp x) 'cons) ((atom x) 'atom) ((equal x '(1)) 'one))
(cond ((memq x '(b a)) 1) ((eq x 'c) 2))
