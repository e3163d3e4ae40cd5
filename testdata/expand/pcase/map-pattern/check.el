(prelude (require 'map))
(each fields std ((:id . 1) (kind . k)) ((type . circle) (r . 3)) ((kind . "s"))
      [a b] (:id 1 kind k) ((1 . 2)) ((type . square)))
