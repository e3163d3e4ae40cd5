(defun typed (x)
  (cond
   ((cl-typep x '(integer 0 2)) 'bit-ish)
   ((cl-typep x 'integer) 'int)
   ((cl-typep x '(or string symbol)) 'name)
   ((cl-typep x '(member 1.5 [])) 'member)
   ((cl-typep x 'list) 'list)))
