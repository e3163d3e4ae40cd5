(if (consp (cdr-safe (cdr-safe x)))
    (let* ((pcx--x0 (cdr x)) (pcx--x1 (cdr pcx--x0)))
      (if (null (cdr pcx--x1))
          (let ((key (car x)) (value (car pcx--x0)) (_ignored (car pcx--x1)))
            key))))
;; A body inside cl-macrolet may read the variable through a local macro:
;; no warning there.
(let ((who 'o))
  (cl-macrolet ((tell () `(list 'who who)))
    (progn
      (ignore (consp '(i 9)))
      (let ((who (car-safe '(i 9))) (_o (car-safe (cdr-safe '(i 9)))))
        (tell)))))
