(each kind std "x" "y" three [1])
