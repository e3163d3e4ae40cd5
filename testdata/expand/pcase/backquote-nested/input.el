(defun eval-op (x)
  (pcase x
    (`(add ,a ,b) (+ a b))
    (`(neg ,(and n (pred numberp))) (- n))
    (`((,a ,b)) (list 'pair a b))
    (`(,a (,b . ,c)) (list a b c))))
