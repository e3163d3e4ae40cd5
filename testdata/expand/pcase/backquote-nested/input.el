(defun eval-op (x)
  (pcase x
    (`(add ,a ,b) (+ a b))
    (`(neg ,(and n (pred numberp))) (- n))
    (`(,a (,b . ,c)) (list a (list b) c))
    (`((,a ,b)) (list 'pair a b))))
