(defun kind (x)
  (if (consp x)
      (let ((pcx--x0 (car x)))
        (cond
         ((let ((h pcx--x0)) (not (consp h)))
          (let ((h pcx--x0)) (ignore h) (list 'flat h)))
         ((not (let ((l x)) (proper-list-p l))) 'dotted)
         (t 'nested)))
    (list 'atom x)))
