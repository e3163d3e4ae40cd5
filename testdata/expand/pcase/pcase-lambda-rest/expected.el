(defalias 'combine
  (lambda (pcx--arg0 _ &optional pcx--arg1 &rest pcx--arg2)
    (declare (pure nil))
    (let ((k (car-safe pcx--arg0)) (v (cdr-safe pcx--arg0)))
      (ignore (vectorp pcx--arg1))
      (progn
        (ignore (length pcx--arg1))
        (let ((opt (aref pcx--arg1 0)) (rest pcx--arg2))
          (list k v opt rest))))))
(funcall (lambda (pcx--arg0)
           (let ((a (car-safe pcx--arg0)) (b (car-safe (cdr-safe pcx--arg0))))
             (+ a b))) '(1 2))
