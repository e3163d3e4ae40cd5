(each by-length std)
