(each tag std)
