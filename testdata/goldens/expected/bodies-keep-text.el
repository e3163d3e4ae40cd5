;;; bodies-keep-text.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: bodies-keep-text (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(let* ((pcx--val0 (pop args)))
  (cond
   ((equal pcx--val0 "-window-system")
    (if (fboundp 'x-create-frame)
        (setq dontkill t
              tty-name 'window-system)))
   ((equal pcx--val0 "-tty")
    (setq tty-name (pop args)           ; the device
          tty-type (pop args))

    (when (or (daemonp)
              (eq window-system 'w32))
      (push "-window-system" args)))))
