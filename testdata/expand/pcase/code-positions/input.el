;; pcase-family forms in quoted data and backquote templates are data;
;; the operands of , and every evaluated position are code.
(defvar pcx-cw-table '((pcase x (1 'one)) [(pcase-let ((a 1)) a)]))
(defmacro pcx-cw-quote (e)
  `(list (pcase ,e (1 'one)) ',(pcase-let ((`(,a . ,_) (list e))) a)))
(list pcx-cw-table
      `(pcase x ,(pcase x (1 'one) (_ 'other)) ,@(pcase-let ((`(,a) (list x))) (list a)))
      (pcx-cw-quote x))
(let ((pcase-let 'a-variable) (v (pcase x ((pred integerp) (1+ x)))))
  (condition-case err
      (pcase-exhaustive x ((pred integerp) (list pcase-let v)))
    (error (pcase err (`(error ,msg) (length msg))))))
(funcall #'(lambda (l) (mapcar (pcase-lambda (`(,k . ,_)) k) l))
         (list (list x) (cons 'k x)))
