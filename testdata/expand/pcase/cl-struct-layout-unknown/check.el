(prelude (cl-defstruct rect w h))
(calls (area (make-rect :w 2 :h 3)) (area (make-rect :w 'a :h 3)) (area 1))
(each area std)
