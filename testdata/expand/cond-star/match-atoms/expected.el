(cond
 ((eq v :none) 'keyword)
 ((eql v 42) 'number)
 ((eql v ?a) 'char)
 ((string-match "^ab*\\'" v) 'regexp)
 ((eq v 'sym) 'symbol)
 ((equal v '(1 2)) 'list)
 ((equal v [1 2]) 'vector)
 ((eq v t) 't))
