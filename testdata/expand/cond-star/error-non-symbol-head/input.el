(cond* ((match* ((lambda (v) v) y) x) y))
