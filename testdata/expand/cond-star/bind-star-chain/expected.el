(let ((pcx--init0 (get-buffer name)))
  (let* ((buf pcx--init0) (size (and buf (buffer-size buf))))
    (when pcx--init0 (message "found %s" name))
    (if (null buf) 'missing (let ((big (> size 1000))) (if big 'big 'small)))))
