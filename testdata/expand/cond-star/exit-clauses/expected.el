(defun classify (x)
  (if (eq x 1)
      'one
    (if (memq x '(2 3)) (progn (message "small") 'small) 'other)))
