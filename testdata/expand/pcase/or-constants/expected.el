(defun kind (x)
  (cond
   ((memq x '(c b a)) 'letter)
   ((memql x '(three 2 1)) 'small)
   ((member x '("y" "x")) 'other)
   ((vectorp x) 'other)))
