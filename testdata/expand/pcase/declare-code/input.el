;; declare clauses whose arguments are code: a compiler macro's lambda, a
;; gv-setter's lambda and a completion predicate are expanded.
(defvar pcx-dc-list nil)
(defun pcx-dc-get (l)
  (declare (compiler-macro
            (lambda (form)
              (pcase l
                ((pred integerp) (list 'nth l 'pcx-dc-list))
                (_ form))))
           (gv-setter
            (lambda (v)
              (pcase-let ((`(,n ,val) (list l v)))
                (list 'setcar (list 'nthcdr n 'pcx-dc-list) val))))
           (completion (lambda (_sym buf) (pcase buf ('nil 'no-buffer) (_ 'buffer))))
           (indent 1))
  (nth l pcx-dc-list))
