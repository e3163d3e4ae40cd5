(cond* ((> n 0) (push n seen) :non-exit)
       (:log (message "checked") :non-exit)
       ((< n 0) 'negative)
       (t 'done :non-exit))
