(each inspect std (x b) (1 b 2))
