(cond
 ((and (consp pair)
       (consp (cdr pair))
       (equal (car pair) (nth 1 pair))
       (null (nthcdr 2 pair)))
  (let ((x (car pair))) (list 'same x)))
 ((and (consp pair) (consp (cdr pair)) (null (nthcdr 2 pair)))
  (let ((x (car pair)) (y (nth 1 pair))) (list 'different x y))))
