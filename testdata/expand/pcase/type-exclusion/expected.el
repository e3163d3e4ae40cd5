(defun tag (x)
  (cond
   ((symbolp x) (list 'sym (p x)))
   ((integerp x) (cond ((p x) 'int) ((numberp x) 'num)))
   ((consp x) 'cons)
   ((stringp x) 'str)
   ((vectorp x) 'vec)
   ((numberp x) 'num)))
