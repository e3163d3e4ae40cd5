(each bq std (list `(1 2)) (list `(1)) [`x] [`(y)] `z (1 (2)))
