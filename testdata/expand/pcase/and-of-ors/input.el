(defun check (x)
  (pcase x
    ((and (or (pred p1) (pred q1))
          (or (pred p2) (pred q2))
          (or (pred p3) (pred q3))
          (or (pred p4) (pred q4)))
     'yes)
    (_ 'no)))
