(defun parse (x)
  (pcase x
    ((or `(,a) `(,a ,b)) (list a b))))
