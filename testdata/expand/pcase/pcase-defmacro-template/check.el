(each pairs std (k . 1) (1 . 2) (2 . x) (3 . 4) (k))
