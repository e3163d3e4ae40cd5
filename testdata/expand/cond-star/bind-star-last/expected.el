(list (let ((pcx--init0 (f)))
        (let* ((x pcx--init0) y) (when pcx--init0 (g x y))))
      (let ((pcx--init1 (f))) (let* ((x pcx--init1)) (when pcx--init1))))
