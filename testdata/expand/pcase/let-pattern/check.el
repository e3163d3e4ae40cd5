(each describe std)
