(each same-pair-p std (1 . 1) (a . a) ("s" . "s") (1.5 . 1.5) ((1) . (1)))
