;; A value read once, bound to a temporary that is read once: the chain
;; (fun-args is the cdr) must keep its value where it goes.
(defun undo-entry (next)
  (pcase next
    (`(,(and beg (pred integerp)) . ,(and end (pred integerp)))
     (list 'range beg end))
    (`(apply . ,fun-args)
     (pcase-let* ((`(,delta ,start . ,args) fun-args))
       (list 'apply delta start args)))
    (`(,(and marker (pred markerp)) . ,(and offset (pred integerp)))
     (list 'marker marker offset))))
