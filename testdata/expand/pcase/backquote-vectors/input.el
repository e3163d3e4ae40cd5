(defun shape (x)
  (pcase x
    (`[] 'empty)
    (`[,a] (list 'one a))
    (`[a ,b ,c] (list 'a-then b c))
    (`[,a (,b . ,c)] (list a b c))
    (`([,a ,b]) (list 'vector-in-list a b))
    (`[,_ ,_ ,_] 'three)))
