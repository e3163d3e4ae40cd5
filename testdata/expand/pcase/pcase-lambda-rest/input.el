(defalias 'combine
  (pcase-lambda (`(,k . ,v) _ &optional `[,opt] &rest (and rest (pred consp)))
    (declare (pure nil))
    (list k v opt rest)))
(funcall (pcase-lambda (`(,a ,b)) (+ a b)) '(1 2))
