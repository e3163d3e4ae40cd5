(cond
 ((and (consp range)
       (numberp (car range))
       (consp (cdr range))
       (let ((lo (car range))) (> (nth 1 range) lo))
       (null (nthcdr 2 range)))
  (let ((lo (car range)) (hi (nth 1 range))) (- hi lo)))
 ((memq range '(red green)) (let ((c range)) c))
 ((stringp range) 'string))
