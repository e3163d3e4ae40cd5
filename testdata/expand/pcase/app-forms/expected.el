(defun inspect (x)
  (if (eq (nth 1 x) 'b)
      'second-is-b
    (let ((pcx--x0 (let ((v x)) (and (consp v) (length v)))))
      (if (integerp pcx--x0)
          (let ((n pcx--x0)) (list 'list-of n))
        (if (null (not (stringp x)))
            'string
          (progn (ignore (f x)) 'no-call-of-g))))))
