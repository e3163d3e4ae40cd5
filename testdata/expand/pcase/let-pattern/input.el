(defun describe (x)
  (pcase x
    ((let (and y (pred integerp)) "s") (list 'never y))
    ((and (pred integerp) (let sq (tick (* x x))) (guard (> sq 3))) (list 'square sq))
    ((let `(,a . ,b) (tick (cons x x))) (list a b))))
