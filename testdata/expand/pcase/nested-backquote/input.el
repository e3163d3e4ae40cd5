(defun bq (x)
  (pcase x
    (`(list `(,a ,b)) (list a b))
    (`[`,c] c)
    (`(,'\` ,d) (list 'quoted-backquote d))
    (`(1 ,`(,e)) e)
    (_ 'other)))
