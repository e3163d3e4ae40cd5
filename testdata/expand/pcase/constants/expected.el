(cond
 ((eql v 1) 'one)
 ((equal v 1.5) 'float)
 ((equal v "s") 'string)
 ((equal v '(1 2)) 'list)
 ((null v) nil)
 ((eq v :key) 'keyword)
 ((eql v 1180591620717411303424) 'big)
 ((eql v ?a) 'char))
