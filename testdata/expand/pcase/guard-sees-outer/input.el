(let ((b 'outer-b))
  (pcase x
    ((and (or (and 1 (let a 'one)) (let b 'other)) (guard (tick b))) (list a b))))
(pcase x
  ((or (and (pred cl-evenp) e) o) (list e o)))
