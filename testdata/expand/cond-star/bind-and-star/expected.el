(progn
  (let* ((file (and t (buffer-file-name)))
         (dir (and file (file-name-directory file))))
    (if dir (setq last-dir dir)))
  (let* ((pcx--s0 (and t (stringp last-dir)))
         (len (and pcx--s0 (length last-dir))))
    (if len len)))
