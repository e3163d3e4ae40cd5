(defun parse (x)
  (if (consp x)
      (let* ((pcx--x0 (car-safe x)) (pcx--x1 (cdr-safe x)))
        (cond
         ((null pcx--x1) (let ((a pcx--x0) (b nil)) (list a b)))
         ((consp pcx--x1)
          (let* ((pcx--x2 (car-safe pcx--x1)) (pcx--x3 (cdr-safe pcx--x1)))
            (if (null pcx--x3) (let ((a pcx--x0) (b pcx--x2)) (list a b)))))))))
