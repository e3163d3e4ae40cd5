(defun parse (tok)
  ;; Classify a token.
  (cond* ((bind* (s (symbol-name tok))))
         ((match* (rx (seq "-" (+ digit))) s) 'negative)
         ((bind-and* (n (string-to-number s)) (_ (> n 0))) (setq pos t))
         ((pcase* (pred keywordp) tok) 'keyword)
         ((string-prefix-p "x" s) 'hex)
         (t 'word)))
