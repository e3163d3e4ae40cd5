(cond
 ((not x) 'false)
 ((not (atom x)) 'cons)
 ((function integerp x) 'never))
