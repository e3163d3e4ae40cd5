(emacs30-error 2)
