;;; input.el --- pattern macros of a required file, made by a definer that computes names  -*- lexical-binding: t -*-

(require 'api-defs)

(defun edit-text (x)
  (if (listp x)
      (cond
       ((let ((alist x)) (assoc "newText" alist))
        (let ((pcx--x0 (let ((alist x)) (cdr (assoc "newText" alist)))))
          (cond
           ((let ((alist x)) (assoc "range" alist))
            (let ((new-text pcx--x0)
                  (range (let ((alist x)) (cdr (assoc "range" alist)))))
              (list 'edit new-text range)))
           ((let ((alist x)) (assoc "fullPath" alist))
            (let ((full-path (let ((alist x)) (cdr (assoc "fullPath" alist)))))
              (list 'url full-path)))
           (t 'none))))
       ((let ((alist x)) (assoc "fullPath" alist))
        (let ((full-path (let ((alist x)) (cdr (assoc "fullPath" alist)))))
          (list 'url full-path)))
       (t 'none))
    'none))
