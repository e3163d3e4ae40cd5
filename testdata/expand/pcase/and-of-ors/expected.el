(defun check (x)
  (if (and (or (p1 x) (q1 x))
           (or (p2 x) (q2 x))
           (or (p3 x) (q3 x))
           (or (p4 x) (q4 x)))
      'yes
    'no))
