(defun grade (n)
  (pcase n
    ((pred (> 0)) 'negative)
    ((pred (lambda (v) (< v 10))) 'small)
    ((and (pred integerp) (pred (< 100))) 'big)
    ((and m (pred (= (* 2 (/ m 2))))) (list 'even m))
    (_ 'other)))
