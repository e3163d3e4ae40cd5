;;; my-mode.el --- an example  -*- lexical-binding: t -*-

(defun my-mode-describe (event)
  ;; EVENT is (TYPE . DATA).
  (pcase event
    (`(key . ,k)
     ;; A key press.
     (format "key %s" k))
    (`(click ,x ,y) (format "click at %d,%d" x y))
    (_ "unknown")))

(provide 'my-mode)
