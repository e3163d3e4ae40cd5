;; declare clauses whose arguments are code: a compiler macro's lambda, a
;; gv-setter's lambda and a completion predicate are expanded.
(defvar pcx-dc-list nil)
(defun pcx-dc-get (l)
  (declare (compiler-macro
            (lambda (form)
              (if (integerp l) (list 'nth l 'pcx-dc-list) form)))
           (gv-setter
            (lambda (v)
              (let* ((pcx--val0 (list l v)))
                (ignore (consp pcx--val0))
                (let* ((pcx--x0 (car-safe pcx--val0))
                       (pcx--x1 (cdr-safe pcx--val0)))
                  (ignore (consp pcx--x1))
                  (let* ((pcx--x2 (car-safe pcx--x1))
                         (pcx--x3 (cdr-safe pcx--x1)))
                    (ignore (null pcx--x3))
                    (let ((n pcx--x0) (val pcx--x2))
                      (list 'setcar (list 'nthcdr n 'pcx-dc-list) val)))))))
           (completion (lambda (_sym buf) (if (null buf) 'no-buffer 'buffer)))
           (indent 1))
  (nth l pcx-dc-list))
