(let ((pcx--val0 (next-token)))
  (cond
   ((eq pcx--val0 'open) (push 'open stack))
   ((eq pcx--val0 'close) (pop stack))))
(if (eq 'literal 'literal) t)
