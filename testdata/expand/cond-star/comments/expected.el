(defun double-or-keep (x)
  ;; Numbers first.
  ;; Everything else.
  (if (numberp x)
      (let ((n x))
        ;; Double it.
        (* 2 n))                        ; the result
    x))
