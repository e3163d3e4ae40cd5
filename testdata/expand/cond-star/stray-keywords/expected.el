(progn nil nil)
