(if (eql x 1) 'one 'other)
