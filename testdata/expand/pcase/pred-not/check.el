(each kind std (a b) (a . b) ((a) b) ((1 2)))
