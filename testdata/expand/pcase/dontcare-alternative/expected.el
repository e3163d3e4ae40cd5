;; Emacs's own sources write (or PAT pcase--dontcare): PAT is assumed to
;; match, its tests run only for their effects.
(if (eq (car-safe form) 'condition-case)
    (let* ((pcx--x0 (cdr form))
           (pcx--x1 (cdr-safe pcx--x0))
           (err (car-safe pcx--x0))
           (body (car-safe pcx--x1))
           (handlers (cdr-safe pcx--x1)))
      (list err body handlers))
  form)
