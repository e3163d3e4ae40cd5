(defun parse (tok)
  ;; Classify a token.
  (let ((s (symbol-name tok)))
    (if (string-match "-[[:digit:]]+\\'" s)
        'negative
      (let ((n (string-to-number s))) (if (and n (> n 0)) (setq pos t)))
      (cond
       ((keywordp tok) 'keyword)
       ((string-prefix-p "x" s) 'hex)
       (t 'word)))))
