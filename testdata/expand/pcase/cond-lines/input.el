(defun h (x y)
  (pcase x
    ('a (cond ((eq y 1) 'one) (t 'other)))
    ('b (cond ((pcase y ('q t)) 1) (t 2)))))
(defun f (x)
  (pcase x ('a 1) ('b 2) (_ 3)))
