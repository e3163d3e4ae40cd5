(each size std "a" red green 4 5 "s" 1.5 z blue)
