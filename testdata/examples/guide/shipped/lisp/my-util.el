;;; my-util.el --- nothing to expand  -*- lexical-binding: t -*-

(defun my-util-twice (x) (* 2 x))

(provide 'my-util)
