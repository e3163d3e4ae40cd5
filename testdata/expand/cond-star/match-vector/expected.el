(cond
 ((and (vectorp point) (= (length point) 2))
  (let ((x (aref point 0)) (y (aref point 1))) (+ x y)))
 ((and (vectorp point) (= (length point) 3)) 'three))
