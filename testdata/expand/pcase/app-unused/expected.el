'x
(let* ((pcx--x0 (g x)) (pcx--x1 (h pcx--x0))) (if (eql pcx--x1 1) 'one 'none))
