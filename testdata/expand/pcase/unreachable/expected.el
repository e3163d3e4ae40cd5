(if (eq x 'a) 1 (let ((other x)) (list other)))
