(defun kind (x)
  (pcase x
    ((or 'a 'b 'c) 'letter)
    ((or 1 2 'three) 'small)
    ((or "x" "y" (pred vectorp)) 'other)))
