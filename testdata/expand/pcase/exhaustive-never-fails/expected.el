(let ((pcx--val0 (get-value)))
  (if (integerp pcx--val0) 'int (let ((other pcx--val0)) (list 'other other))))
