(defalias 'first-two
  (lambda (pcx--arg0 &optional pcx--arg1)
    "Return the first two elements."
    (interactive)
    (ignore (consp pcx--arg0))
    (let* ((pcx--x0 (car-safe pcx--arg0)) (pcx--x1 (cdr-safe pcx--arg0)))
      (ignore (consp pcx--x1))
      (let* ((pcx--x2 (car-safe pcx--x1)))
        (let ((a pcx--x0) (b pcx--x2))
          (ignore (integerp pcx--arg1))
          (let ((n pcx--arg1)) (list a b n)))))))
