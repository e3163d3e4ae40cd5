(defun scan (s)
  (if (stringp s)
      (if (string-match "\\`[[:digit:]]+\\'" s)
          'number
        (let ((pcx--x0 (let ((s s))
                         (if (string-match "v\\(?1:[[:digit:]]+\\)" s)
                             (match-string 1 s)
                           0))))
          (if (numberp pcx--x0)
              (let ((pcx--x1 (let ((s s))
                               (and (string-match
                                     "\\(?1:[a-z]\\)\\(?2:[a-z]+\\)\\1"
                                     s)
                                    (cons (match-string 1 s)
                                          (match-string 2 s))))))
                (cond
                 ((consp pcx--x1)
                  (let ((a (car pcx--x1)) (b (cdr pcx--x1))) (list a b)))
                 ((string-match "\\(?:no\\|yes\\)" s) 'answer)
                 (t 'other)))
            (let ((n pcx--x0)) (list 'version n)))))
    'other))
