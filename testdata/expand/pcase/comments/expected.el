;; A leading comment stays.
;; the interesting case
                                        ; add them
(if (and (consp (cdr-safe x)) (null (cdr (cdr x))))
    (let ((a (car x)) (b (car (cdr x)))) (+ a b))
  0)
