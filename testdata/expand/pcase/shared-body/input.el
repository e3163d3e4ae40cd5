(defun handle (msg)
  (pcase msg
    ((or `(error ,text) `(fatal ,text))
     (message "failed: %s" text)
     (setq failed t))
    (_ (message "ok"))))
