(defun double-or-keep (x)
  (cond* ;; Numbers first.
         ((match* (numberp n) x)
          ;; Double it.
          (* 2 n))                      ; the result
         ;; Everything else.
         (t x)))
