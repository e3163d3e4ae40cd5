(if (mapp x) (let ((y (map-elt x 'b 42))) y))
