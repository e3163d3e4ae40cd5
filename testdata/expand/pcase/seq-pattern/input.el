(defun parts (x)
  (pcase x
    ((seq 1 b) (list 'one-then b))
    ((seq a (and b (guard (not (null b))))) (list a b))
    ((seq a _ c &rest r) (list a c r))
    (_ 'not-a-sequence)))
