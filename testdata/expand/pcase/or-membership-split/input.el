(defun size (x)
  (pcase x
    ("a" 'string-a)
    (2 'two)
    ((or "a" 2 3) 'three)
    ((or 'red 'green 4 5) 'ints-and-symbols)
    ((or "s" '1.5 'z) 'equal-set)
    ((or 'red 'blue) 'blue)
    (_ 'other)))
