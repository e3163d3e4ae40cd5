(defun size (x)
  (cond
   ((equal x "a") 'string-a)
   ((eql x 2) 'two)
   ((eql x 3) 'three)
   ((memql x '(red green 4 5)) 'ints-and-symbols)
   ((member x '("s" 1.5 z)) 'equal-set)
   ((eq x 'blue) 'blue)
   (t 'other)))
