(vars (form std (condition-case e (f) (error 1)) (condition-case) (condition-case e)))
