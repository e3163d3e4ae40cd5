(defun op (x)
  (pcase-exhaustive x
    (`(add ,a ,b) (+ a b))
    (`(neg ,a) (- a))
    ((pred numberp) x)))
