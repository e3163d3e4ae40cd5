(each grade std 5 -3 200 201 50 51)
