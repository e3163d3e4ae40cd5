(defun broken (x)
  (pcase x
    (`(a ,(and b
               (or)))
     b)))
(pcase x
  ((and 1
        (app car
             (foo bar)))
   2))
(pcase-let ((`(,a . ,b) 1)
            (`(,c ,@d) 2))
  a)
(pcase-exhaustive x
  ('a 1)
  ((or 'b
       [2 3])
   2))
