;;; input.el --- structs, a pattern macro and an rx definition of files found through -L  -*- lexical-binding: t -*-

(require 'tree-leaf)

(defun leaf-value (n)
  (let* ((pcx--pcase-0 (lambda ()
                         (cond
                          ((tree-node-p n)
                           (let* ((pcx--x0 (tree-node-label n)))
                             (if (eq pcx--x0 'root)
                                 (let ((node n))
                                   (list 'root (tree-node-label node)))
                               (let ((l pcx--x0)) (list 'labelled l)))))
                          ((stringp n)
                           (if (string-match "\\`[a-z]+[[:digit:]]*\\'" n)
                               (list 'id n)
                             'none))
                          (t 'none)))))
    (if (cl-typep n 'tree-leaf)
        (let* ((pcx--x1 (aref n 1)) (pcx--x2 (aref n 2)))
          (if (numberp pcx--x2)
              (let ((label pcx--x1) (v pcx--x2)) (list label v))
            (funcall pcx--pcase-0)))
      (funcall pcx--pcase-0))))
