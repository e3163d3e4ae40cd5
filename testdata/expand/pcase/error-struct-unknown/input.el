(defun area (r)
  (pcase r
    ((cl-struct rect w h) (* w h))
    (_ 0)))
