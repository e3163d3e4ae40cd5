(each pairs nil ((a . 1) (b . 2)) ((a 1) b) 5)
