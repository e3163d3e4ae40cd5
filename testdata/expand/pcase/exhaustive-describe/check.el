(each op std (add 1 2) (neg 3) (add 1) (neg))
