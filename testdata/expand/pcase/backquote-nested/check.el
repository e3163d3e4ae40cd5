(each eval-op std (add 1 2) (neg 4) (neg a) ((1 2)) (1 (2 . 3)) (1 (2 . 3) 4) (add 1)
      (add (1) 2 3))
