(each parse std)
