(calls (pcx-se-run '(1 2)) (pcx-se-run 5))
