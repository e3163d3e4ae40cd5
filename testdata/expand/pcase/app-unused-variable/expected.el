(ignore (car x))
(ignore (car x))
(if (consp x) (ignore (car (cdr x))))
