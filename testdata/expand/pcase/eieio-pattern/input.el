(defclass animal () ((name :initarg :name) (legs :initarg :legs :initform 4)))
(defun animal-desc (a)
  (pcase a
    ((eieio name (legs 2)) (list 'biped name))
    ((eieio (name (and n (pred stringp))) legs) (list n legs))
    (_ 'unknown)))
