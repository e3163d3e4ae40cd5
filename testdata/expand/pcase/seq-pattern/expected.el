(defun parts (x)
  (if (seqp x)
      (let ((pcx--x0 (seq--elt-safe x 1)) (pcx--x1 (seq--elt-safe x 0)))
        (cond
         ((eql pcx--x1 1) (let ((b pcx--x0)) (list 'one-then b)))
         ((let ((b pcx--x0)) (not (null b)))
          (let ((b pcx--x0) (a pcx--x1)) (ignore b) (list a b)))
         (t
          (let ((r (seq-drop x 3)) (c (seq--elt-safe x 2)) (a pcx--x1))
            (list a c r)))))
    'not-a-sequence))
