(cond
 ((and (vectorp v) (= (length v) 2))
  (let ((a (aref v 0)) (b (aref v 1))) (list a b)))
 ((and (vectorp v) (= (length v) 3) (eq (aref v 1) 'c) (eq (aref v 2) 'd))
  (let ((a (aref v 0))) a)))
