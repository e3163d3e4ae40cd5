(defun double-or-keep (x)
  ;; Numbers first.
  ;; Everything else.
  (if (numberp x)
      (let ((n x))
        ;; Double it.
                                        ; the result
        (* 2 n))
    x))
