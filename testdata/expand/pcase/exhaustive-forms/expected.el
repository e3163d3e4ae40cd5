(let ((pcx--x0 x)) (error "No clause matching `%S'" pcx--x0))
(let* ((pcx--val0 (list x "b")))
  (if (stringp pcx--val0)
      1
    (let ((pcx--x0 pcx--val0)) (error "No clause matching `%S'" pcx--x0))))
