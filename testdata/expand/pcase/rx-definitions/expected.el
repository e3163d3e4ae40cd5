;; rx patterns see the rx-define definitions before them and the rx-let
;; definitions around them (parameters, &rest, shadowing), as Emacs does
;; when it expands them.
(rx-define digits (+ digit))
(rx-define kv (k v) (seq k "=" v))

(defun classify (s)
  (rx-let ((lword (+ (any "a-z")))
           (pair (a b) (seq a ":" b))
           (one-of (&rest xs) (or xs)))
    (if (stringp s)
        (if (string-match "\\`[a-z]+:[[:digit:]]+\\'" s)
            'pair
          (let ((pcx--x0 (let ((s s))
                           (and (string-match
                                 "\\`\\(?1:[a-z]+\\)=\\(?2:[[:digit:]]+\\)\\'"
                                 s)
                                (cons (match-string 1 s) (match-string 2 s))))))
            (cond
             ((consp pcx--x0)
              (let ((k (car pcx--x0)) (v (cdr pcx--x0))) (list 'kv k v)))
             ((string-match "\\`\\(?:no\\|yes\\|[ny]\\)\\'" s) 'answer)
             ((string-match "\\`[[:digit:]]+\\'" s) 'number)
             (t 'other))))
      'other)))

(defun shadow (s)
  (rx-let ((digits "N"))
    (if (and (stringp s) (string-match "\\`N\\'" s))
        'outer
      (rx-let ((digits "M") (digits "second"))
        (if (stringp s)
            (cond
             ((string-match "\\`M\\'" s) 'inner)
             ((string-match "\\`x=M\\'" s) 'inner-kv)
             (t 'none))
          'none)))))

(defun toto ()
  (rx-let ((tata "ab"))
    (if (and (stringp "abc") (string-match "ab" "abc")) 'toto)))
