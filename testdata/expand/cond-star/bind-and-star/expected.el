(progn
  (let* ((file (buffer-file-name)) (dir (and file (file-name-directory file))))
    (if dir (setq last-dir dir)))
  (let ((len (and (stringp last-dir) (length last-dir)))) (if len len)))
