(pcase-defmacro my-pair (a b)
  "Match a cons whose car matches A and cdr matches B."
  `(and (pred consp) (app car ,a) (app cdr ,b)))
(pcase-defmacro one-of (&rest vals)
  `(or ,@vals))
(defun pairs (x)
  (cond
   ((consp x)
    (let ((pcx--x0 (car x)))
      (cond
       ((eq pcx--x0 'k) (let ((v (cdr x))) (list 'key v)))
       ((memql pcx--x0 '(1 2)) (let ((v (cdr x))) (list 'small v))))))
   ((memq x '(a b)) 'letter)))
