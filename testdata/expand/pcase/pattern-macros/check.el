(prelude (require 'seq) (require 'map))
(each f std "v12" "xv3" "v" ((:k . 1) (id . 2)) (:k 1 id 2) [1 2] 5)
