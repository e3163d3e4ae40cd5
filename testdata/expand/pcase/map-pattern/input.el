(defun fields (x)
  (pcase x
    ((map :id ('kind (and k (pred symbolp)))) (list id k))
    ((map ('type 'circle) r) (list 'circle r))
    ((map (1 second)) (list 'second second))))
