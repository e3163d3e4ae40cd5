(defun scan (s)
  (if (stringp s)
      (if (string-match "\\`[[:digit:]]+\\'" s)
          'number
        (let* ((pcx--x0 (funcall #'(lambda (s)
                                     (if (string-match "v\\(?1:[[:digit:]]+\\)"
                                                       s)
                                         (match-string 1 s)
                                       0))
                                 s)))
          (if (not (numberp pcx--x0))
              (let ((n pcx--x0)) (list 'version n))
            (let* ((pcx--x1 (funcall #'(lambda (s)
                                         (and (string-match
                                               "\\(?1:[a-z]\\)\\(?2:[a-z]+\\)\\1"
                                               s)
                                              (cons (match-string 1 s)
                                                    (match-string 2 s))))
                                     s)))
              (cond
               ((consp pcx--x1)
                (let* ((pcx--x2 (car-safe pcx--x1))
                       (pcx--x3 (cdr-safe pcx--x1)))
                  (let ((a pcx--x2) (b pcx--x3)) (list a b))))
               ((string-match "\\(?:no\\|yes\\)" s) 'answer)
               (t 'other))))))
    'other))
