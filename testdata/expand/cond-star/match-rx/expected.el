(let ((pcx--d0 s))
  (if (string-match "[[:digit:]]+\\'" pcx--d0)
      'number
    (let ((pcx--d1 s))
      (let (pcx--ba0 pcx--ba1 pcx--ba2)
        (if (if (string-match "\\([[:alpha:]]+\\)=\\(.*\\)\\'" pcx--d1)
                (progn
                  (setq pcx--ba0 (match-string 0 pcx--d1))
                  (setq pcx--ba1 (match-string 1 pcx--d1))
                  (setq pcx--ba2 (match-string 2 pcx--d1))
                  t))
            (let* ((val pcx--ba2) (key pcx--ba1) (all pcx--ba0))
              (list key val all)))))))
