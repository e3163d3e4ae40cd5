(cond
 ((and (consp l) (null (cdr l))) (let ((x (car l))) x))
 ((and (consp l) (null (cdr l))) (let ((x (car l))) x)))
