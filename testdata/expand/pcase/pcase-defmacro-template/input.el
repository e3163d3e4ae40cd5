(pcase-defmacro my-pair (a b)
  "Match a cons whose car matches A and cdr matches B."
  `(and (pred consp) (app car ,a) (app cdr ,b)))
(pcase-defmacro one-of (&rest vals)
  `(or ,@vals))
(defun pairs (x)
  (pcase x
    ((my-pair 'k v) (list 'key v))
    ((my-pair (one-of 1 2) v) (list 'small v))
    ((one-of 'a 'b) 'letter)))
