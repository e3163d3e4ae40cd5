(let ((pcx--d0 entry))
  (consp pcx--d0)
  (let* ((v (cdr pcx--d0)) (k (car pcx--d0))) (if (null k) 'none (list k v))))
