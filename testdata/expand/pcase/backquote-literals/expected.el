(cond
 ((consp x)
  (let* ((pcx--x0 (car-safe x)))
    (cond
     ((eq pcx--x0 'quote)
      (let* ((pcx--x1 (cdr-safe x)))
        (cond
         ((consp pcx--x1)
          (let* ((pcx--x2 (car-safe pcx--x1)) (pcx--x3 (cdr-safe pcx--x1)))
            (cond
             ((null pcx--x3) (let ((v pcx--x2)) v))
             ((equal x '(1 . 2)) 'pair))))
         ((equal x '(1 . 2)) 'pair))))
     ((equal pcx--x0 1.5)
      (let* ((pcx--x1 (cdr-safe x)))
        (cond
         ((consp pcx--x1)
          (let* ((pcx--x2 (car-safe pcx--x1)) (pcx--x3 (cdr-safe pcx--x1)))
            (cond
             ((equal pcx--x3 '("s" :k)) (let ((s pcx--x2)) s))
             ((equal x '(1 . 2)) 'pair))))
         ((equal x '(1 . 2)) 'pair))))
     ((eq pcx--x0 'lit)
      (let* ((pcx--x1 (cdr-safe x)))
        (cond
         ((consp pcx--x1)
          (let* ((pcx--x2 (car-safe pcx--x1)) (pcx--x3 (cdr-safe pcx--x1)))
            (cond
             ((null pcx--x3) (let ((y pcx--x2)) y))
             ((equal x '(1 . 2)) 'pair))))
         ((equal x '(1 . 2)) 'pair))))
     ((eq pcx--x0 'a)
      (let* ((pcx--x1 (cdr-safe x)))
        (cond
         ((consp pcx--x1)
          (let* ((pcx--x2 (car-safe pcx--x1)))
            (cond
             ((consp pcx--x2)
              (let* ((pcx--x4 (car-safe pcx--x2)))
                (cond
                 ((eq pcx--x4 'b)
                  (let* ((pcx--x5 (cdr-safe pcx--x2)))
                    (cond
                     ((consp pcx--x5)
                      (let* ((pcx--x6 (car-safe pcx--x5))
                             (pcx--x7 (cdr-safe pcx--x5)))
                        (cond
                         ((null pcx--x7)
                          (let* ((pcx--x3 (cdr-safe pcx--x1)))
                            (cond
                             ((null pcx--x3) (let ((z pcx--x6)) z))
                             ((equal x '(1 . 2)) 'pair))))
                         ((equal x '(1 . 2)) 'pair))))
                     ((equal x '(1 . 2)) 'pair))))
                 ((equal x '(1 . 2)) 'pair))))
             ((equal x '(1 . 2)) 'pair))))
         ((equal x '(1 . 2)) 'pair))))
     ((equal x '(1 . 2)) 'pair))))
 ((equal x '(1 . 2)) 'pair))
