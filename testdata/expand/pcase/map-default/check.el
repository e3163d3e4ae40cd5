;; Emacs 30 honours DEFAULT; Emacs 28.2 ignores it.
(prelude (require 'map))
(vars (x std ((b . 1)) ((a . 1)) ((b))))
(same-as 0 (pcase x ((and (pred mapp) (app (lambda (m) (map-elt m 'b 42)) y)) y)))
