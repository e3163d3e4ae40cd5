(defun vsum (v)
  (if (vectorp v)
      (let ((pcx--x0 (length v)))
        (cond
         ((eql pcx--x0 1) (let ((x (aref v 0))) x))
         ((eql pcx--x0 2) (let ((x (aref v 0)) (y (aref v 1))) (+ x y)))
         ((eql pcx--x0 3)
          (let ((x (aref v 0)) (y (aref v 1)) (z (aref v 2))) (+ x y z)))))))
