(prelude (require 'seq))
(each parts std [1 5] "ab" (1) (x nil) (x nil 3 4) [a b c d] (1 nil))
