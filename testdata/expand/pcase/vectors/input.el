(defun vsum (v)
  (pcase v
    (`[,x] x)
    (`[,x ,y] (+ x y))
    (`[,x ,y ,z] (+ x y z))))
