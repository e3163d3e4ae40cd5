(defalias 'first-two
  (lambda (pcx--arg0 &optional pcx--arg1)
    "Return the first two elements."
    (interactive)
    (let ((a (car-safe pcx--arg0))
          (b (car-safe (cdr-safe pcx--arg0)))
          (n pcx--arg1))
      (list a b n))))
