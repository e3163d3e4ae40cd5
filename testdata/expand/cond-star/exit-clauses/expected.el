(defun classify (x)
  (cond
   ((eq x 1) 'one)
   ((memq x '(2 3)) (message "small") 'small)
   (t 'other)))
