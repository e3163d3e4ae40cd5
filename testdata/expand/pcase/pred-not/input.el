(defun kind (x)
  (pcase x
    ((pred (not consp)) (list 'atom x))
    ((and `(,h . ,_) (guard (not (consp h)))) (list 'flat h))
    ((pred (not (lambda (l) (proper-list-p l)))) 'dotted)
    (_ 'nested)))
