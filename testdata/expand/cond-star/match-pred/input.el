(cond* ((match* (list (numberp lo) (> hi lo)) range) (- hi lo))
       ((match* (memq c '(red green)) range) c)
       ((match* (stringp _) range) 'string))
