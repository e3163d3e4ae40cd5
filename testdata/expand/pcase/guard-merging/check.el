(each pick std 0 0 0 1 1)
