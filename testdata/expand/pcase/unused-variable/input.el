(pcase x
  (`(,key ,value ,_ignored) key))
;; A body inside cl-macrolet may read the variable through a local macro:
;; no warning there.
(let ((who 'o))
  (cl-macrolet ((tell () `(list 'who who)))
    (pcase-let ((`(,who ,_o) '(i 9))) (tell))))
