(let ((pcx--d0 color))
  (if (or (eq 'red pcx--d0) (eq 'green pcx--d0) (eq 'blue pcx--d0))
      'primary
    (let ((pcx--d1 color))
      (if (or (eql 1 pcx--d1) (eql 2 pcx--d1) (eql 3 pcx--d1)) 'small))))
