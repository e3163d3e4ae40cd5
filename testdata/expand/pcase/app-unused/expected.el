'x
(let ((pcx--x0 (g x))) (if (eql (h pcx--x0) 1) 'one 'none))
