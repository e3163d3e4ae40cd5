(defun same-pair-p (p)
  (pcase p
    (`(,x . ,x) t)
    (_ nil)))
