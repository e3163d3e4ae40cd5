;; Temporaries never take the name of a symbol of the input (cli.md 7).
(let ((pcx--x0 'user-x0) (pcx--val1 'user-val1))
  (pcase (list x pcx--x0)
    (`(,a ,b) (list a b pcx--x0 pcx--val1))
    ((or 'pcx--x2 `[,a]) (list a pcx--x0))))
(pcase-let ((`(,pcx--arg0 . ,_pcx--0) (cons x x))
            (_ (list 'pcx--pcase-0)))
  (funcall (pcase-lambda (`(,y)) (list y pcx--arg0)) (list x)))
