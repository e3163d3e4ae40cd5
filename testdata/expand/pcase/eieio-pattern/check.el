(prelude (require 'eieio))
(calls (animal-desc (animal :name "rex")) (animal-desc (animal :name "tweety" :legs 2))
       (animal-desc (animal :name 'sym :legs 3)))
(each animal-desc std)
