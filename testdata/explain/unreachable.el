;;; unreachable.el --- clauses no value can choose, and look-alikes that can -*- lexical-binding: t -*-

;; Shadowed by an earlier catch-all.
(pcase x (_ 'any) ('a 'never))
(pcase x (y (list y)) ((pred stringp) 'never))
;; Shadowed by an or of the same constants.
(pcase x ((or 'a 'b) 'ab) ('a 'never))
(pcase x ((or 'a 'b 'c) 'abc) ((or 'b 'c) 'never))
;; Type exclusion: a constant of a type an earlier pred took.
(pcase x ((pred stringp) 'string) ("foo" 'never))
(pcase x ((pred integerp) 'int) (42 'never))
(pcase x ((pred symbolp) 'sym) ('foo 'never))
(pcase x ((pred keywordp) 'kw) (:k 'never))
(pcase x ((pred listp) 'list) ('nil 'never))
;; A pred implied by an earlier pred, or by an or of preds.
(pcase x ((pred numberp) 'num) ((pred integerp) 'never))
(pcase x ((pred integerp) 'int) ((pred natnump) 'never))
(pcase x ((pred symbolp) 'sym) ((pred null) 'never))
(pcase x ((or (pred stringp) (pred symbolp)) 'str-or-sym) ((pred stringp) 'never))
(pcase x ((pred atom) 'atom) ((pred consp) 'cons) (_ 'never))
;; Destructuring an earlier clause already took.
(pcase x ((pred listp) 'list) (`(,a . ,b) (list 'never a b)))
(pcase x ((pred vectorp) 'vec) (`[,a] (list 'never a)))
(pcase x ((and (pred consp) (app car 'a)) 'a-cons) (`(a . ,_) 'never))
(pcase x ((and (pred consp) (app car-safe (pred symbolp))) 'sym-cons) (`(foo ,y) (list 'never y)))
;; Shadowed by two clauses together.
(pcase x ((pred stringp) 'str) ((pred symbolp) 'sym) ((or "a" 'b) 'never))

;; Look-alikes whose clauses can all be chosen: no warning.
(pcase x ((pred natnump) 'nat) ((pred integerp) 'negative))
(pcase x ('a 'a) ((or 'a 'b) 'b))
(pcase x ((pred stringp) 'str) ('foo 'sym))
(pcase x ((and (pred consp) (app car 'a)) 'a-cons) (`(b . ,_) 'b-cons))
(pcase x ((pred (lambda (v) (equal v "s"))) 's) ("s" 'never-but-unknown))
(pcase x ((pred listp) 'list) ((pred vectorp) 'vec))
(pcase x ((pred symbolp) 'sym) ("nil" 'string))
(pcase x ((pred integerp) 'int) ('1.0 'float))
(pcase x (`(,a ,b) (list a b)) (`(,a . ,b) (list a b)))
