(defun eval-op (x)
  (let* ((pcx--pcase-0 (lambda (a b) (list 'pair a b)))
         (pcx--pcase-1 (lambda (pcx--x0 pcx--x1 pcx--x2 pcx--x3)
                         (if (null pcx--x1)
                             (let ((a pcx--x0) (b pcx--x2) (c pcx--x3))
                               (list a b c)))))
         (pcx--pcase-2 (lambda (pcx--x0 pcx--x4 pcx--x1)
                         (if (consp pcx--x4)
                             (let* ((pcx--x2 (car-safe pcx--x4))
                                    (pcx--x3 (cdr-safe pcx--x4)))
                               (funcall pcx--pcase-1
                                        pcx--x0
                                        pcx--x1
                                        pcx--x2
                                        pcx--x3)))))
         (pcx--pcase-3 (lambda (pcx--x0 pcx--x5 pcx--x4 pcx--x1)
                         (if (consp pcx--x0)
                             (let* ((pcx--x6 (car-safe pcx--x0))
                                    (pcx--x7 (cdr-safe pcx--x0)))
                               (if (consp pcx--x7)
                                   (let* ((pcx--x8 (car-safe pcx--x7))
                                          (pcx--x9 (cdr-safe pcx--x7)))
                                     (if (null pcx--x9)
                                         (if (null pcx--x5)
                                             (funcall pcx--pcase-0
                                                      pcx--x6
                                                      pcx--x8)
                                           (funcall pcx--pcase-2
                                                    pcx--x0
                                                    pcx--x4
                                                    pcx--x1))
                                       (funcall pcx--pcase-2
                                                pcx--x0
                                                pcx--x4
                                                pcx--x1)))
                                 (funcall pcx--pcase-2
                                          pcx--x0
                                          pcx--x4
                                          pcx--x1)))
                           (funcall pcx--pcase-2 pcx--x0 pcx--x4 pcx--x1))))
         (pcx--pcase-4 (lambda (pcx--x0 pcx--x5)
                         (if (consp pcx--x0)
                             (let* ((pcx--x6 (car-safe pcx--x0))
                                    (pcx--x7 (cdr-safe pcx--x0)))
                               (if (consp pcx--x7)
                                   (let* ((pcx--x8 (car-safe pcx--x7))
                                          (pcx--x9 (cdr-safe pcx--x7)))
                                     (if (null pcx--x9)
                                         (if (null pcx--x5)
                                             (funcall pcx--pcase-0
                                                      pcx--x6
                                                      pcx--x8)))))))))
         (pcx--pcase-5 (lambda (pcx--x0 pcx--x5 pcx--x4)
                         (if (consp pcx--x4)
                             (let* ((pcx--x2 (car-safe pcx--x4))
                                    (pcx--x3 (cdr-safe pcx--x4))
                                    (pcx--x1 (cdr-safe pcx--x5)))
                               (funcall pcx--pcase-1
                                        pcx--x0
                                        pcx--x1
                                        pcx--x2
                                        pcx--x3)))))
         (pcx--pcase-6 (lambda (pcx--x0 pcx--x5)
                         (if (consp pcx--x5)
                             (let* ((pcx--x4 (car-safe pcx--x5)))
                               (funcall pcx--pcase-5
                                        pcx--x0
                                        pcx--x5
                                        pcx--x4))))))
    (if (consp x)
        (let* ((pcx--x0 (car-safe x)))
          (cond
           ((eq pcx--x0 'add)
            (let* ((pcx--x5 (cdr-safe x)))
              (if (consp pcx--x5)
                  (let* ((pcx--x4 (car-safe pcx--x5))
                         (pcx--x1 (cdr-safe pcx--x5)))
                    (if (consp pcx--x1)
                        (let* ((pcx--x10 (car-safe pcx--x1))
                               (pcx--x11 (cdr-safe pcx--x1)))
                          (if (null pcx--x11)
                              (let ((a pcx--x4) (b pcx--x10)) (+ a b))
                            (funcall pcx--pcase-3
                                     pcx--x0
                                     pcx--x5
                                     pcx--x4
                                     pcx--x1)))
                      (funcall pcx--pcase-3 pcx--x0 pcx--x5 pcx--x4 pcx--x1)))
                (funcall pcx--pcase-4 pcx--x0 pcx--x5))))
           ((eq pcx--x0 'neg)
            (let* ((pcx--x5 (cdr-safe x)))
              (if (consp pcx--x5)
                  (let* ((pcx--x4 (car-safe pcx--x5)))
                    (cond
                     ((numberp pcx--x4)
                      (let* ((pcx--x1 (cdr-safe pcx--x5)))
                        (if (null pcx--x1)
                            (let ((n pcx--x4)) (- n))
                          (funcall pcx--pcase-4 pcx--x0 pcx--x5))))
                     ((consp pcx--x0)
                      (let* ((pcx--x6 (car-safe pcx--x0))
                             (pcx--x7 (cdr-safe pcx--x0)))
                        (if (consp pcx--x7)
                            (let* ((pcx--x8 (car-safe pcx--x7))
                                   (pcx--x9 (cdr-safe pcx--x7)))
                              (if (null pcx--x9)
                                  (if (null pcx--x5)
                                      (funcall pcx--pcase-0 pcx--x6 pcx--x8)
                                    (funcall pcx--pcase-5
                                             pcx--x0
                                             pcx--x5
                                             pcx--x4))
                                (funcall pcx--pcase-5 pcx--x0 pcx--x5 pcx--x4)))
                          (funcall pcx--pcase-5 pcx--x0 pcx--x5 pcx--x4))))
                     (t (funcall pcx--pcase-5 pcx--x0 pcx--x5 pcx--x4))))
                (funcall pcx--pcase-4 pcx--x0 pcx--x5))))
           ((consp pcx--x0)
            (let* ((pcx--x6 (car-safe pcx--x0)) (pcx--x7 (cdr-safe pcx--x0)))
              (if (consp pcx--x7)
                  (let* ((pcx--x8 (car-safe pcx--x7))
                         (pcx--x9 (cdr-safe pcx--x7)))
                    (if (null pcx--x9)
                        (let* ((pcx--x5 (cdr-safe x)))
                          (if (null pcx--x5)
                              (funcall pcx--pcase-0 pcx--x6 pcx--x8)
                            (funcall pcx--pcase-6 pcx--x0 pcx--x5)))
                      (let* ((pcx--x5 (cdr-safe x)))
                        (funcall pcx--pcase-6 pcx--x0 pcx--x5))))
                (let* ((pcx--x5 (cdr-safe x)))
                  (funcall pcx--pcase-6 pcx--x0 pcx--x5)))))
           (t
            (let* ((pcx--x5 (cdr-safe x)))
              (funcall pcx--pcase-6 pcx--x0 pcx--x5))))))))
