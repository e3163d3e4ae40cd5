(defun f (x)
  (cond
   ((seqp x) (let ((b (seq--elt-safe x 1)) (a (seq--elt-safe x 0))) (list a b)))
   ((mapp x) (let ((k (map-elt x :k)) (i (map-elt x 'id nil))) (list k i)))
   ((stringp x)
    (let ((pcx--x0 (let ((s x))
                     (if (string-match "v\\(?1:[[:digit:]]+\\)" s)
                         (match-string 1 s)
                       0))))
      (cond
       ((not (numberp pcx--x0)) (let ((n pcx--x0)) n))
       ((cl-typep x 'integer) 'int))))
   ((cl-typep x 'integer) 'int)))
