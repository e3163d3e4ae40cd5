;; Decision trees do not know that atom is not consp: the way to the
;; error needs a value that is neither, so these cannot fail.
(defun kind-a (x)
  (pcase-exhaustive x
    ((pred consp) 'cons)
    ((pred atom) 'atom)))

(defun kind-b (x)
  (pcase-exhaustive x
    ((pred listp) 'list)
    ((pred atom) 'atom)))

;; The first way to the error the search meets ((consp x) and (atom x)
;; both true) is impossible; the warning names one that a value takes.
(defun kind-c (x)
  (pcase-exhaustive x
    ((and (pred consp) (pred atom) (pred f)) 'never)
    ((pred null) 'nil)))
