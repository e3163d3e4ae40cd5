(defun inspect (x)
  (let* ((pcx--x0 (nth 1 x)))
    (if (eq pcx--x0 'b)
        'second-is-b
      (let* ((pcx--x1 (funcall #'(lambda (v) (and (consp v) (length v))) x)))
        (if (integerp pcx--x1)
            (let ((n pcx--x1)) (list 'list-of n))
          (let* ((pcx--x2 (not (stringp x))))
            (if (null pcx--x2)
                'string
              (let* ((_pcx--0 (f x))) 'no-call-of-g))))))))
