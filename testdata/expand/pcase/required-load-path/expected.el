;;; input.el --- structs, a pattern macro and an rx definition of files found through -L  -*- lexical-binding: t -*-

(require 'tree-leaf)

(defun leaf-value (n)
  (cond
   ((cl-typep n 'tree-leaf)
    (let ((pcx--x0 (aref n 1)) (pcx--x1 (aref n 2)))
      (cond
       ((numberp pcx--x1) (let ((label pcx--x0) (v pcx--x1)) (list label v)))
       ((tree-node-p n)
        (let ((pcx--x2 (tree-node-label n)))
          (if (eq pcx--x2 'root)
              (let ((node n)) (list 'root (tree-node-label node)))
            (let ((l pcx--x2)) (list 'labelled l)))))
       ((and (stringp n) (string-match "\\`[a-z]+[[:digit:]]*\\'" n))
        (list 'id n))
       (t 'none))))
   ((tree-node-p n)
    (let ((pcx--x2 (tree-node-label n)))
      (if (eq pcx--x2 'root)
          (let ((node n)) (list 'root (tree-node-label node)))
        (let ((l pcx--x2)) (list 'labelled l)))))
   ((and (stringp n) (string-match "\\`[a-z]+[[:digit:]]*\\'" n)) (list 'id n))
   (t 'none)))
