(defclass animal () ((name :initarg :name) (legs :initarg :legs :initform 4)))
(defun animal-desc (a)
  (if (eieio-object-p a)
      (let ((pcx--x0 (eieio-oref a 'name)) (pcx--x1 (eieio-oref a 'legs)))
        (cond
         ((eql pcx--x1 2) (let ((name pcx--x0)) (list 'biped name)))
         ((stringp pcx--x0) (let ((n pcx--x0) (legs pcx--x1)) (list n legs)))
         (t 'unknown)))
    'unknown))
