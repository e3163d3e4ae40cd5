(defun size (x)
  (cond
   ((equal x "a") 'string-a)
   ((eql x 2) 'two)
   ((eql x 3) 'three)
   ((memql x '(5 4 green red)) 'ints-and-symbols)
   ((member x '(z 1.5 "s")) 'equal-set)
   ((eq x 'blue) 'blue)
   (t 'other)))
