;; Decision trees do not know that atom is not consp: the way to the
;; error needs a value that is neither, so these cannot fail.
(defun kind-a (x)
  (cond
   ((consp x) 'cons)
   ((atom x) 'atom)
   (t (let ((pcx--x0 x)) (error "No clause matching `%S'" pcx--x0)))))

(defun kind-b (x)
  (cond
   ((listp x) 'list)
   ((atom x) 'atom)
   (t (let ((pcx--x0 x)) (error "No clause matching `%S'" pcx--x0)))))

;; The first way to the error the search meets ((consp x) and (atom x)
;; both true) is impossible; the warning names one that a value takes.
(defun kind-c (x)
  (cond
   ((consp x)
    (if (atom x)
        (if (f x)
            'never
          (let ((pcx--x0 x)) (error "No clause matching `%S'" pcx--x0)))
      (let ((pcx--x0 x)) (error "No clause matching `%S'" pcx--x0))))
   ((null x) nil)
   (t (let ((pcx--x0 x)) (error "No clause matching `%S'" pcx--x0)))))
