(defun dir (d)
  (pcase-exhaustive d
    ('north 0)
    ('south 180)))
(pcase-exhaustive (read-kind)
  ((pred stringp) 'text)
  (`(,k . ,_) k))
