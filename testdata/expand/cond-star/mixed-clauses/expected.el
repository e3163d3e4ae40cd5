(defun parse (tok)
  ;; Classify a token.
  (let* ((s (symbol-name tok)))
    (let ((pcx--d0 s))
      (if (string-match "-[[:digit:]]+\\'" pcx--d0)
          'negative
        (let* ((n (and t (string-to-number s))) (pcx--s0 (and n (> n 0))))
          (if pcx--s0 (setq pos t)))
        (if (keywordp tok) 'keyword (if (string-prefix-p "x" s) 'hex 'word))))))
