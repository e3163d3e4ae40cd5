(pcase x
  ((app car c) nil))
(pcase-let (((app car c) x))
  nil)
(pcase x
  (`(,_ . ,(app car c)) nil))
