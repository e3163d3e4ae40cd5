(cond* ((match* (or 'red 'green 'blue) color) 'primary)
       ((match* (or 1 2 3) color) 'small))
