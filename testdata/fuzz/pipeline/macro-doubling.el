(pcase-defmacro grow (x) `(and (grow ,x) (grow ,x)))
(pcase y ((grow a) a))
