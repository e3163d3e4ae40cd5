;; Dotted lists where Emacs's cond* takes a list apart: each is an error
;; at the form, clause, binding or pattern that is not a proper list.
(cond* (t 1) . oops)
(cond* ((eq x 1) 1 . 2))
(cond* ((bind* . x) 1))
(cond* ((bind* (x 1 . 2)) x))
(cond* ((bind* 1) 2))
(cond* ((bind-and* . x) 1))
(cond* ((bind-and* (a . 1)) a))
(cond* ((pcase* . x) 1))
(cond* ((match* (list a . b) x) a))
(cond* ((match* (vector a . b) x) a))
(cond* ((match* (rx "a" . n) s) n))
(cond* ((match* (\` a b) v) 1))
