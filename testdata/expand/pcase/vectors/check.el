(each vsum std [5] [1 2 3] [1 2 3 4])
