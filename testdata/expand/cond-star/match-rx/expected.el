(let (pcx--ba0 pcx--ba1 pcx--ba2)
  (cond
   ((string-match "[[:digit:]]+\\'" s) 'number)
   ((if (string-match "\\([[:alpha:]]+\\)=\\(.*\\)\\'" s)
        (progn
          (setq pcx--ba0 (match-string 0 s))
          (setq pcx--ba1 (match-string 1 s))
          (setq pcx--ba2 (match-string 2 s))
          t))
    (let ((all pcx--ba0) (key pcx--ba1) (val pcx--ba2)) (list key val all)))))
