(each check std)
