;; rx patterns see the rx-define definitions before them and the rx-let
;; definitions around them (parameters, &rest, shadowing), as Emacs does
;; when it expands them.
(rx-define digits (+ digit))
(rx-define kv (k v) (seq k "=" v))

(defun classify (s)
  (rx-let ((lword (+ (any "a-z")))
           (pair (a b) (seq a ":" b))
           (one-of (&rest xs) (or xs)))
    (pcase s
      ((rx bos (pair lword digits) eos) 'pair)
      ((rx bos (kv (let k lword) (let v digits)) eos) (list 'kv k v))
      ((rx bos (one-of "yes" "no" ?y ?n) eos) 'answer)
      ((rx bos digits eos) 'number)
      (_ 'other))))

(defun shadow (s)
  (rx-let ((digits "N"))
    (pcase s
      ((rx bos digits eos) 'outer)
      (_ (rx-let ((digits "M") (digits "second"))
           (pcase s
             ((rx bos digits eos) 'inner)
             ((rx bos (kv "x" digits) eos) 'inner-kv)
             (_ 'none)))))))

(defun toto ()
  (rx-let ((tata "ab"))
    (pcase "abc" ((rx tata) 'toto))))
