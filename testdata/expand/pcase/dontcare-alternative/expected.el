;; Emacs's own sources write (or PAT pcase--dontcare): PAT is assumed to
;; match, its tests run only for their effects.
(if (consp form)
    (let* ((pcx--x0 (car-safe form)))
      (if (eq pcx--x0 'condition-case)
          (let* ((pcx--x1 (cdr-safe form)))
            (ignore (consp pcx--x1))
            (let* ((pcx--x2 (car-safe pcx--x1)) (pcx--x3 (cdr-safe pcx--x1)))
              (ignore (consp pcx--x3))
              (let* ((pcx--x4 (car-safe pcx--x3)) (pcx--x5 (cdr-safe pcx--x3)))
                (let ((err pcx--x2) (body pcx--x4) (handlers pcx--x5))
                  (list err body handlers)))))
        form))
  form)
