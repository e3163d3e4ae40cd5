;;; tree-leaf.el --- a struct that includes one of another file  -*- lexical-binding: t -*-

(require 'tree-base)

(cl-defstruct (tree-leaf (:include tree-node)) value)

(pcase-defmacro tree-labelled (label &optional pat)
  "Match a tree node whose label matches LABEL, and the node itself PAT."
  (list 'and (list 'pred 'tree-node-p)
        (list 'app 'tree-node-label label)
        (or pat '_)))

(provide 'tree-leaf)
