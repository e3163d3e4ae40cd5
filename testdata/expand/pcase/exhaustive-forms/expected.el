(error "No clause matching `%S'" x)
(let ((pcx--val0 (list x "b")))
  (if (stringp pcx--val0) 1 (error "No clause matching `%S'" pcx--val0)))
