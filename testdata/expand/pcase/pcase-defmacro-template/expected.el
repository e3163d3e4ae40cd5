(pcase-defmacro my-pair (a b)
  "Match a cons whose car matches A and cdr matches B."
  `(and (pred consp) (app car ,a) (app cdr ,b)))
(pcase-defmacro one-of (&rest vals)
  `(or ,@vals))
(defun pairs (x)
  (cond
   ((consp x)
    (let* ((pcx--x0 (car x)))
      (cond
       ((eq pcx--x0 'k)
        (let* ((pcx--x1 (cdr x))) (let ((v pcx--x1)) (list 'key v))))
       ((memql pcx--x0 '(2 1))
        (let* ((pcx--x1 (cdr x))) (let ((v pcx--x1)) (list 'small v))))
       ((memq x '(b a)) 'letter))))
   ((memq x '(b a)) 'letter)))
