(defun kind (x)
  (pcase x
    ((pred integerp) 'int)
    (`(,a . ,b) (list a b))
    (_ 'other)))
