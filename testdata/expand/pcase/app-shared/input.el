(defun by-length (l)
  (pcase l
    ((app length 0) 'empty)
    ((app length 1) 'one)
    ((app length n) (list 'many n))))
