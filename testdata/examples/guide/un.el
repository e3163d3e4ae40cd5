(defun sign (x)
  (pcase x
    ('a 1)
    ((or 'a 'b) 2)
    ('a 3)))
