(defun tag (x)
  (let* ((pcx--pcase-0 (lambda () (cond ((null x) 'never) ((numberp x) 'num)))))
    (cond
     ((symbolp x) (list 'sym (p x)))
     ((integerp x) (if (p x) 'int (funcall pcx--pcase-0)))
     ((consp x) 'cons)
     ((stringp x) 'str)
     ((vectorp x) 'vec)
     (t (funcall pcx--pcase-0)))))
