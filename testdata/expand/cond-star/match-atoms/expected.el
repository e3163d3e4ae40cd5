(let ((pcx--d0 v))
  (if (eq :none pcx--d0)
      'keyword
    (let ((pcx--d1 v))
      (if (eql 42 pcx--d1)
          'number
        (let ((pcx--d2 v))
          (if (eql ?a pcx--d2)
              'char
            (let ((pcx--d3 v))
              (if (string-match "^ab*\\'" pcx--d3)
                  'regexp
                (let ((pcx--d4 v))
                  (if (eq 'sym pcx--d4)
                      'symbol
                    (let ((pcx--d5 v))
                      (if (equal '(1 2) pcx--d5)
                          'list
                        (let ((pcx--d6 v))
                          (if (equal [1 2] pcx--d6)
                              'vector
                            (let ((pcx--d7 v))
                              (if (eq t pcx--d7) 't))))))))))))))))
