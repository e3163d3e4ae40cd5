(defun check (x)
  (let* ((pcx--pcase-0 (lambda () (cond ((p4 x) 'yes) ((q4 x) 'yes) (t 'no))))
         (pcx--pcase-1 (lambda ()
                         (cond
                          ((p3 x) (funcall pcx--pcase-0))
                          ((q3 x) (funcall pcx--pcase-0))
                          (t 'no))))
         (pcx--pcase-2 (lambda ()
                         (cond
                          ((p2 x) (funcall pcx--pcase-1))
                          ((q2 x) (funcall pcx--pcase-1))
                          (t 'no)))))
    (cond
     ((p1 x) (funcall pcx--pcase-2))
     ((q1 x) (funcall pcx--pcase-2))
     (t 'no))))
