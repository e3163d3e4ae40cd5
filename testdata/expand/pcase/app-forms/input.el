(defun inspect (x)
  (pcase x
    ((app (nth 1) 'b) 'second-is-b)
    ((app (lambda (v) (and (consp v) (length v))) (and n (pred integerp)))
     (list 'list-of n))
    ((app (not stringp) 'nil) 'string)
    ((app f (app g _)) 'no-call-of-g)))
