(defun dir (d)
  (pcase-exhaustive d
    ('north 0)
    ('south 180)))
