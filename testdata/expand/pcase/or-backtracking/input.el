(pcase x
  ((and (or (and (pred integerp) (let k 'int)) (and (pred p) (let k 'any)))
        (guard (tick (eq k 'any))))
   k))
(pcase x
  ((and (or (and (pred tick) (let a 1)) (let a 2)) (guard (tick a)) (pred q)) a))
