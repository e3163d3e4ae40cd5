(cond* ((match* (cdr-ignore (list 'lambda (cdr (list arg)) body)) form) (list arg body))
       ((match* (cdr-ignore (list 'defun name args)) form) (list name args)))
