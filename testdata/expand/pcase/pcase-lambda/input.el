(defalias 'first-two
  (pcase-lambda (`(,a ,b . ,_) &optional (and n (pred integerp)))
    "Return the first two elements."
    (interactive)
    (list a b n)))
