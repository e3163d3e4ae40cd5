(cond* ((match* (rx (+ digit) n "x") s) n))
(cond* ((match* (rx (repeat)) s) 1))
(cond* ((match* (rx (literal x)) s) 1))
