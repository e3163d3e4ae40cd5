(defun f (x)
  (pcase x
    (`(a ,b c) b)
    (`[,c] c)
    (`(d ,e) e)
    (_ (list 'other (g 1 2 3) (h 4 5 6) (i 7 8 9) '#1=(a b c d e f g h i j k l m n o p . #1#)))))
