;; Emacs 30 puts the value at the place of `_'; Emacs 28.2 reads a variable.
(vars (n std))
(same-as 0 (pcase n ((pred (lambda (v) (< 0 v 10))) 'digit) (_ 'other)))
