;;; tree-base.el --- the base struct of tree-leaf.el  -*- lexical-binding: t -*-

(cl-defstruct tree-node label)

(provide 'tree-base)
