(cond* ((match* (rx (+ digit)) s) 'number)
       ((match* (rx (seq (group (+ alpha)) "=" (group (* nonl))) all key val) s)
        (list key val all)))
