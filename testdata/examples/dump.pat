;;; dump.el:5:3 pcase
clause 0: (and (pred consp $0) (app car-safe $0 -> $1) (quote add $1) (app cdr-safe $0 -> $2) (pred consp $2) (app car-safe $2 -> $3) (var a $3) (app cdr-safe $2 -> $4) (pred consp $4) (app car-safe $4 -> $5) (var b $5) (app cdr-safe $4 -> $6) (quote nil $6))
clause 1: (and (pred consp $0) (app car-safe $0 -> $7) (quote neg $7) (app cdr-safe $0 -> $8) (pred consp $8) (app car-safe $8 -> $9) (var a $9) (app cdr-safe $8 -> $10) (quote nil $10))
clause 2: (or (quote zero $0) (quote (zero) $0))
clause 3: (and (pred integerp $0) (guard (> x 0)))
clause 4: (_ $0)
;;; dump.el:14:3 pcase-let*
clause 0: (or (and (pred vectorp $0) (app length $0 -> $1) (quote 1 $1) (app (aref _ 0) $0 -> $2) (var w $2)) (var w $0))
clause 1: (dontcare $0)

clause 0: (and (pred consp $0) (app car-safe $0 -> $1) (var k $1) (app cdr-safe $0 -> $2) (var v $2))
clause 1: (dontcare $0)
;;; dump.el:19:23 cond*
; cond* is compiled clause by clause, without a pattern IR or decision DAG
