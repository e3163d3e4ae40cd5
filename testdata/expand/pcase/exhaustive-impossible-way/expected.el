;; Decision trees do not know that atom is not consp: the way to the
;; error needs a value that is neither, so these cannot fail.
(defun kind-a (x)
  (cond
   ((consp x) 'cons)
   ((atom x) 'atom)
   (t (error "No clause matching `%S'" x))))

(defun kind-b (x)
  (cond
   ((listp x) 'list)
   ((atom x) 'atom)
   (t (error "No clause matching `%S'" x))))

;; The first way to the error the search meets ((consp x) and (atom x)
;; both true) is impossible; the warning names one that a value takes.
(defun kind-c (x)
  (cond
   ((and (consp x) (atom x) (f x)) 'never)
   ((null x) nil)
   (t (error "No clause matching `%S'" x))))
