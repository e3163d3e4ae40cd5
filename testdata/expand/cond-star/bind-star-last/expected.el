(list (let* ((x (f)) y) (when x (g x y)))
      (let ((x (f))) nil))
