(progn (message "always") (if (zerop n) 'zero 'nonzero))
