(each undo-entry (1 . 2) (apply 1 2 3) (apply 1) (apply) (x . 1) std)
