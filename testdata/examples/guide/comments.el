(defun report (x)
  (pcase (get-return-code x)
    ;; string
    ((and (pred stringp) msg)
     (message "%s" msg))

    ;; symbol
    ('success       (message "Done!"))
    ('would-block   (message "Sorry, can't do it now"))

    ;; default
    (code           (message "Unknown return code %S" code
                             (list x    ; the input
                                   'code)))))
