(cond
 ((and (consp pair)
       (consp (cdr pair))
       (let ((x (car pair)) (y (nth 1 pair))) (> y x))
       (null (nthcdr 2 pair)))
  (let ((x (car pair)) (y (nth 1 pair))) (list 'ascending x y)))
 ((let ((z pair)) (consp z)) (let ((z pair)) 'cons)))
