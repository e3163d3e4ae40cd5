(each classify std)
