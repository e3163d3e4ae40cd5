(defun eval-op (x)
  (let* ((pcx--pcase-0 (lambda (pcx--x0 pcx--x1)
                         (if (consp pcx--x0)
                             (let* ((pcx--x2 (car-safe pcx--x0))
                                    (pcx--x3 (cdr-safe pcx--x0)))
                               (if (consp pcx--x3)
                                   (let* ((pcx--x4 (car-safe pcx--x3))
                                          (pcx--x5 (cdr-safe pcx--x3)))
                                     (if (null pcx--x5)
                                         (if (null pcx--x1)
                                             (let ((a pcx--x2) (b pcx--x4))
                                               (list 'pair a b))))))))))
         (pcx--pcase-1 (lambda (pcx--x0 pcx--x1 pcx--x6 pcx--x7 pcx--x8)
                         (if (null pcx--x6)
                             (let ((a pcx--x0) (b pcx--x7) (c pcx--x8))
                               (list a (list b) c))
                           (funcall pcx--pcase-0 pcx--x0 pcx--x1))))
         (pcx--pcase-2 (lambda (pcx--x0 pcx--x1 pcx--x9 pcx--x6)
                         (if (consp pcx--x9)
                             (let* ((pcx--x7 (car-safe pcx--x9))
                                    (pcx--x8 (cdr-safe pcx--x9)))
                               (funcall pcx--pcase-1
                                        pcx--x0
                                        pcx--x1
                                        pcx--x6
                                        pcx--x7
                                        pcx--x8))
                           (funcall pcx--pcase-0 pcx--x0 pcx--x1))))
         (pcx--pcase-3 (lambda (pcx--x0 pcx--x1 pcx--x9)
                         (if (consp pcx--x9)
                             (let* ((pcx--x7 (car-safe pcx--x9))
                                    (pcx--x8 (cdr-safe pcx--x9))
                                    (pcx--x6 (cdr-safe pcx--x1)))
                               (funcall pcx--pcase-1
                                        pcx--x0
                                        pcx--x1
                                        pcx--x6
                                        pcx--x7
                                        pcx--x8))
                           (funcall pcx--pcase-0 pcx--x0 pcx--x1)))))
    (if (consp x)
        (let* ((pcx--x0 (car-safe x)))
          (cond
           ((eq pcx--x0 'add)
            (let* ((pcx--x1 (cdr-safe x)))
              (if (consp pcx--x1)
                  (let* ((pcx--x9 (car-safe pcx--x1))
                         (pcx--x6 (cdr-safe pcx--x1)))
                    (if (consp pcx--x6)
                        (let* ((pcx--x10 (car-safe pcx--x6))
                               (pcx--x11 (cdr-safe pcx--x6)))
                          (if (null pcx--x11)
                              (let ((a pcx--x9) (b pcx--x10)) (+ a b))
                            (funcall pcx--pcase-2
                                     pcx--x0
                                     pcx--x1
                                     pcx--x9
                                     pcx--x6)))
                      (funcall pcx--pcase-2 pcx--x0 pcx--x1 pcx--x9 pcx--x6)))
                (funcall pcx--pcase-0 pcx--x0 pcx--x1))))
           ((eq pcx--x0 'neg)
            (let* ((pcx--x1 (cdr-safe x)))
              (if (consp pcx--x1)
                  (let* ((pcx--x9 (car-safe pcx--x1)))
                    (if (numberp pcx--x9)
                        (let* ((pcx--x6 (cdr-safe pcx--x1)))
                          (if (null pcx--x6)
                              (let ((n pcx--x9)) (- n))
                            (funcall pcx--pcase-0 pcx--x0 pcx--x1)))
                      (funcall pcx--pcase-3 pcx--x0 pcx--x1 pcx--x9)))
                (funcall pcx--pcase-0 pcx--x0 pcx--x1))))
           (t
            (let* ((pcx--x1 (cdr-safe x)))
              (if (consp pcx--x1)
                  (let* ((pcx--x9 (car-safe pcx--x1)))
                    (funcall pcx--pcase-3 pcx--x0 pcx--x1 pcx--x9))
                (funcall pcx--pcase-0 pcx--x0 pcx--x1)))))))))
