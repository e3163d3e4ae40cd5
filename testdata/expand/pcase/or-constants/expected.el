(defun kind (x)
  (cond
   ((memq x '(a b c)) 'letter)
   ((memql x '(1 2 three)) 'small)
   ((member x '("x" "y")) 'other)
   ((vectorp x) 'other)))
