(if (nil x) 'never)
