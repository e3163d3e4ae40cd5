(cond
 ((numberp x)
  (cond
   ((eql (+ 1 x) 6) 'five)
   ((memq x '(a b)) 'a-or-b)
   (t (let ((r (not (< x 3)))) (list 'small-p r)))))
 ((memq x '(a b)) 'a-or-b)
 ((consp x)
  (let ((pcx--x0 (nth 1 x)))
    (if (symbolp pcx--x0) (let ((second pcx--x0)) (list 'second second))))))
