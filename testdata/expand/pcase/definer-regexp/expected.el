;;; input.el --- pattern macros of a required file, made by a definer that computes names  -*- lexical-binding: t -*-

(require 'api-defs)

(defun edit-text (x)
  (let* ((pcx--pcase-0 (lambda ()
                         (if (funcall
                              #'(lambda (alist) (assoc "fullPath" alist))
                              x)
                             (let* ((pcx--x0 (funcall #'(lambda (alist)
                                                          (cdr (assoc "fullPath"
                                                                      alist)))
                                                      x)))
                               (let ((full-path pcx--x0))
                                 (list 'url full-path)))
                           'none))))
    (if (listp x)
        (if (funcall #'(lambda (alist) (assoc "newText" alist)) x)
            (let* ((pcx--x1
                    (funcall #'(lambda (alist) (cdr (assoc "newText" alist)))
                             x)))
              (if (funcall #'(lambda (alist) (assoc "range" alist)) x)
                  (let* ((pcx--x2 (funcall #'(lambda (alist)
                                               (cdr (assoc "range" alist)))
                                           x)))
                    (let ((new-text pcx--x1) (range pcx--x2))
                      (list 'edit new-text range)))
                (funcall pcx--pcase-0)))
          (funcall pcx--pcase-0))
      'none)))
