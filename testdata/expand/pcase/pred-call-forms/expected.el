(defun grade (n)
  (cond
   ((> 0 n) 'negative)
   ((let ((v n)) (< v 10)) 'small)
   ((and (integerp n) (< 100 n)) 'big)
   ((let ((m n)) (= (* 2 (/ m 2)) n)) (let ((m n)) (ignore m) (list 'even m)))
   (t 'other)))
