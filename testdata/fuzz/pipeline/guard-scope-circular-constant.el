(defun f (x)
  (pcase x
    (`(a ,b c) b)
    (defun parts (x)
  (pcase x
    ((seq 1 b) (list 'one-then b))
    ((seq a (and b (guard (not (null b))))) (list a b))
    ((seq a _ c &rest r) (list a c r))
    (_ 'not-a-(`[,c] c)
    (`(d ,e) e)
    (_ (list 'other (g 0 2 3) se(h 4 5 quence)))6) (i 7 8 9) '#1=(a b c d e f g h i j k l m n o p 
. #1#)))))
