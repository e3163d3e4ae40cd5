(defun between (x)
  (pcase x
    (`(,lo ,(and hi (pred (< lo))) ,(and v (pred (<= lo)) (pred (>= hi))))
     (list 'inside v))
    (`(,lo ,hi . ,_) (list 'outside lo hi))))
