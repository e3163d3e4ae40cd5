(defun by-length (l)
  (let ((pcx--x0 (length l)))
    (cond
     ((eql pcx--x0 0) 'empty)
     ((eql pcx--x0 1) 'one)
     (t (let ((n pcx--x0)) (list 'many n))))))
