;; A leading comment stays.
(pcase x
  ;; the interesting case
  (`(,a ,b) (+ a b))                    ; add them
  (_ 0))
