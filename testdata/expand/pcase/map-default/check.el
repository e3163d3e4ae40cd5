(prelude (require 'map))
(vars (x std ((b . 1)) ((a . 1)) ((b))))
