(defun parse (x)
  (if (consp x)
      (let ((pcx--x0 (car x)) (pcx--x1 (cdr x)))
        (cond
         ((null pcx--x1) (let ((a pcx--x0) (b nil)) (list a b)))
         ((and (consp pcx--x1) (null (cdr pcx--x1)))
          (let ((a pcx--x0) (b (car pcx--x1))) (list a b)))))))
