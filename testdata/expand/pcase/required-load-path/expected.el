;;; input.el --- structs and a pattern macro of files found through -L  -*- lexical-binding: t -*-

(require 'tree-leaf)

(defun leaf-value (n)
  (let* ((pcx--pcase-0 (lambda ()
                         (if (tree-node-p n)
                             (let* ((pcx--x0 (tree-node-label n)))
                               (if (eq pcx--x0 'root)
                                   (let ((node n))
                                     (list 'root (tree-node-label node)))
                                 (let ((l pcx--x0)) (list 'labelled l))))
                           'none))))
    (if (cl-typep n 'tree-leaf)
        (let* ((pcx--x1 (aref n 1)) (pcx--x2 (aref n 2)))
          (if (numberp pcx--x2)
              (let ((label pcx--x1) (v pcx--x2)) (list label v))
            (funcall pcx--pcase-0)))
      (funcall pcx--pcase-0))))
