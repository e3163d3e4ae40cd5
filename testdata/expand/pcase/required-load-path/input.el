;;; input.el --- structs, a pattern macro and an rx definition of files found through -L  -*- lexical-binding: t -*-

(require 'tree-leaf)

(defun leaf-value (n)
  (pcase n
    ((cl-struct tree-leaf label (value (and v (pred numberp)))) (list label v))
    ((tree-labelled 'root node) (list 'root (tree-node-label node)))
    ((tree-labelled l) (list 'labelled l))
    ((rx bos tree-id eos) (list 'id n))
    (_ 'none)))
