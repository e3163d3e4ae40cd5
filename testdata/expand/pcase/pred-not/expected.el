(defun kind (x)
  (if (not (consp x))
      (list 'atom x)
    (let* ((pcx--x0 (car-safe x)))
      (cond
       ((let* ((h pcx--x0)) (not (consp h)))
        (let ((h pcx--x0)) (ignore h) (list 'flat h)))
       ((not (funcall #'(lambda (l) (proper-list-p l)) x)) 'dotted)
       (t 'nested)))))
