(progn
  (if (> n 0) (push n seen))
  (message "checked")
  :non-exit
  (if (< n 0) 'negative 'done :non-exit))
