(emacs30-error 0)
