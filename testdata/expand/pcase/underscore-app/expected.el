(cond
 ((numberp x)
  (let* ((pcx--x0 (+ 1 x)))
    (cond
     ((eql pcx--x0 6) 'five)
     ((memq x '(a b)) 'a-or-b)
     (t
      (let* ((pcx--x1 (not (< x 3)))) (let ((r pcx--x1)) (list 'small-p r)))))))
 ((memq x '(a b)) 'a-or-b)
 ((consp x)
  (let* ((pcx--x2 (nth 1 x)))
    (if (symbolp pcx--x2) (let ((second pcx--x2)) (list 'second second))))))
