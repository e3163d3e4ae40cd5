(defun h (x y)
  (cond
   ((eq x 'a) (cond ((eq y 1) 'one) (t 'other)))
   ((eq x 'b) (cond ((if (eq y 'q) t) 1) (t 2)))))
(defun f (x)
  (cond
   ((eq x 'a) 1)
   ((eq x 'b) 2)
   (t 3)))
