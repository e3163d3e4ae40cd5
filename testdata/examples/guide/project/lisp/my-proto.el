;;; my-proto.el --- an example  -*- lexical-binding: t -*-

(defun my-proto-split (msg)
  (pcase-let ((`(,tag . ,body) msg))
    (list tag body)))

(provide 'my-proto)
