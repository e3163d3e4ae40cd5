(defun scan (s)
  (pcase s
    ((rx bos (+ digit) eos) 'number)
    ((rx "v" (let n (+ digit))) (list 'version n))
    ((rx (let a (any "a-z")) (let b (+ (any "a-z"))) (backref a)) (list a b))
    ((rx (or "yes" "no")) 'answer)
    (_ 'other)))
