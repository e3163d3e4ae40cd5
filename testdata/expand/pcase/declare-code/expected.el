;; declare clauses whose arguments are code: a compiler macro's lambda, a
;; gv-setter's lambda and a completion predicate are expanded.
(defvar pcx-dc-list nil)
(defun pcx-dc-get (l)
  (declare (compiler-macro
            (lambda (form)
              (if (integerp l) (list 'nth l 'pcx-dc-list) form)))
           (gv-setter
            (lambda (v)
              (let* ((pcx--val0 (list l v))
                     (n (car-safe pcx--val0))
                     (val (car-safe (cdr-safe pcx--val0))))
                (list 'setcar (list 'nthcdr n 'pcx-dc-list) val))))
           (completion (lambda (_sym buf) (if (null buf) 'no-buffer 'buffer)))
           (indent 1))
  (nth l pcx-dc-list))
