(if (mapp x) (let* ((pcx--x0 (map-elt x 'b 42))) (let ((y pcx--x0)) y)))
