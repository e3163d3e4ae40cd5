(defun typed (x)
  (pcase x
    ((cl-type (integer 0 2)) 'bit-ish)
    ((cl-type integer) 'int)
    ((cl-type (or string symbol)) 'name)
    ((cl-type (member 1.5 [])) 'member)
    ((cl-type list) 'list)))
