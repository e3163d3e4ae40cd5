(if (< 0 n 10) 'digit 'other)
