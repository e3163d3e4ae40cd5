(cond* ((bind-and* (file (buffer-file-name)) (dir (file-name-directory file)))
        (setq last-dir dir))
       ((bind-and* (_ (stringp last-dir)) (len (length last-dir)))
        len))
