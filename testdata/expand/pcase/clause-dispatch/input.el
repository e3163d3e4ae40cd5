(defun classify (x)
  (pcase x
    (1 'one)
    ((pred stringp) 'str)
    (`(,a . ,b) (+ a b))
    (_ 'other)))
