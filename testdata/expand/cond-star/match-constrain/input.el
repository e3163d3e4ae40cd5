(cond* ((match* (list x (constrain y (> y x))) pair) (list 'ascending x y))
       ((match* (constrain z (consp z)) pair) 'cons))
