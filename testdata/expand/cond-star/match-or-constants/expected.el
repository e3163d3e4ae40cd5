(cond
 ((memq color '(red green blue)) 'primary)
 ((memql color '(1 2 3)) 'small))
