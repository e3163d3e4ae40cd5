;; A leading comment stays.
;; the interesting case
                                        ; add them
(if (consp x)
    (let* ((pcx--x0 (car-safe x)) (pcx--x1 (cdr-safe x)))
      (if (consp pcx--x1)
          (let* ((pcx--x2 (car-safe pcx--x1)) (pcx--x3 (cdr-safe pcx--x1)))
            (if (null pcx--x3) (let ((a pcx--x0) (b pcx--x2)) (+ a b)) 0))
        0))
  0)
