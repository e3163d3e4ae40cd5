(defun tag (x)
  (pcase x
    ((pred symbolp) (list 'sym (p x)))
    ((and (pred integerp) (guard (p x))) 'int)
    ((pred consp) 'cons)
    ((pred stringp) 'str)
    ((pred vectorp) 'vec)
    ((pred null) 'never)
    ((pred numberp) 'num)))
