(each dir std north south)
