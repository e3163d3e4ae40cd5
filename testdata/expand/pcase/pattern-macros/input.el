(defun f (x)
  (pcase x
    ((seq a b) (list a b))
    ((map :k ('id i)) (list k i))
    ((rx "v" (let n (+ digit))) n)
    ((cl-type integer) 'int)))
