(defun classify (x)
  (cond
   ((eql x 1) 'one)
   ((stringp x) 'str)
   ((consp x) (let ((a (car x)) (b (cdr x))) (+ a b)))
   (t 'other)))
