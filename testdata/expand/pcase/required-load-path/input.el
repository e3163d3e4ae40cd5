;;; input.el --- structs and a pattern macro of files found through -L  -*- lexical-binding: t -*-

(require 'tree-leaf)

(defun leaf-value (n)
  (pcase n
    ((cl-struct tree-leaf label (value (and v (pred numberp)))) (list label v))
    ((tree-labelled 'root node) (list 'root (tree-node-label node)))
    ((tree-labelled l) (list 'labelled l))
    (_ 'none)))
