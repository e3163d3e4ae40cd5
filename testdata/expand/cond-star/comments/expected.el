(defun double-or-keep (x)
  ;; Numbers first.
  ;; Everything else.
  (let ((pcx--d0 x))
    (if (numberp pcx--d0)
        (let* ((n pcx--d0))
          ;; Double it.
                                        ; the result
          (* 2 n))
      x)))
