;;; tree-base.el --- the base struct of tree-leaf.el  -*- lexical-binding: t -*-

(cl-defstruct tree-node label)

(rx-define tree-id (seq (+ (any "a-z")) (* digit)))

(provide 'tree-base)
