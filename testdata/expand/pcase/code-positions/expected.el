;; pcase-family forms in quoted data and backquote templates are data;
;; the operands of , and every evaluated position are code.
(defvar pcx-cw-table '((pcase x (1 'one)) [(pcase-let ((a 1)) a)]))
(defmacro pcx-cw-quote (e)
  `(list (pcase ,e (1 'one)) ',(let ((a (car-safe (list e)))) a)))
(list pcx-cw-table
      `(pcase x ,(if (eql x 1)
                     'one
                   'other) ,@(let ((a (car-safe (list x)))) (list a)))
      (pcx-cw-quote x))
(let ((pcase-let 'a-variable) (v (if (integerp x) (1+ x))))
  (condition-case err
      (if (integerp x) (list pcase-let v) (error "No clause matching `%S'" x))
    (error (if (and (eq (car-safe err) 'error)
                    (consp (cdr err))
                    (null (cdr (cdr err))))
               (let ((msg (car (cdr err)))) (length msg))))))
(funcall #'(lambda (l) (mapcar (lambda (pcx--arg0)
                                 (let ((k (car-safe pcx--arg0))) k)) l))
         (list (list x) (cons 'k x)))
