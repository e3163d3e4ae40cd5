(defun count-down (n)
  (pcase n
    ((my-pos m) (count-down (1- m)))
    ((cl-struct point x y) (list x y))
    (_ 'done)))
