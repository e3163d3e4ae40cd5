(calls (norm1 (make-point3 :x 1 :y 2 :z 3)) (norm1 (make-point :x 5 :y 0))
       (norm1 (make-point :x 5 :y 1)) (norm1 (make-point :x 'a :y 1))
       (norm1 (make-pl :a 1 :b 2)) (norm1 '(pl 1 2)) (norm1 (make-point3 :x 1 :y 0 :z 3)))
(each norm1 std)
