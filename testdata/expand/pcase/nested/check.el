(each walk std (quote 1) (a 1) (a . b) ((a) 1))
