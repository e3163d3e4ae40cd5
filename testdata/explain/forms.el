;;; forms.el --- forms whose --explain output is pinned (forms.txt)  -*- lexical-binding: t -*-

;; The example of the Emacs Lisp manual: a string, symbols, a default.
(defun report (x)
  (pcase (get-return-code x)
    ;; string
    ((and (pred stringp) msg)
     (message "%s" msg))
    ;; symbol
    ('success       (message "Done!"))
    ('would-block   (message "Sorry, can't do it now"))
    ('read-only     (message "The shmliblick is read-only"))
    ('access-denied (message "You do not have the needed rights"))
    ;; default
    (code           (message "Unknown return code %S" code))))

;; Backquote destructuring.
(defun evaluate (form env)
  (pcase form
    (`(add ,x ,y) (+ (evaluate x env) (evaluate y env)))
    (`(call ,fun ,arg) (funcall (evaluate fun env) (evaluate arg env)))
    (`(fn ,arg ,body) (lambda (val) (evaluate body (cons (cons arg val) env))))
    ((pred numberp) form)
    ((pred symbolp) (cdr (assq form env)))
    (_ (error "Unknown expression %S" form))))

;; An or whose alternatives bind the same variable.
(defun name-of (x)
  (pcase x
    ((or `(,name . ,_) (and (pred symbolp) name)) name)
    ((or 'a 'b 'c) 'letter)))

;; pred, guard and app.
(defun classify (n)
  (pcase n
    ((and (pred integerp) (app 1+ m) (guard (> m 10))) (list 'big m))
    ((pred (not integerp)) 'not-an-integer)
    ((app abs (pred zerop)) 'zero)
    (_ 'small)))

;; seq, map, rx and cl-type patterns.
(defun parts (x)
  (pcase x
    ((seq first second) (list first second))
    ((map :name (:age age 0)) (list name age))
    ((rx "v" (let num (+ digit))) (string-to-number num))
    ((cl-type integer) x)))

;; A cl-struct pattern with a known layout.
(cl-defstruct point x y)
(defun on-axis (p)
  (pcase p
    ((cl-struct point (x 0) y) (list 'y-axis y))
    ((cl-struct point x (y 0)) (list 'x-axis x))))

;; pcase-let and pcase-let*: destructuring without checks.
(defun swap (pair)
  (pcase-let ((`(,a . ,b) pair))
    (cons b a)))
(defun nested (x)
  (pcase-let* ((`(,a ,b) x)
               (`[,c] b))
    (list a c)))

;; pcase-dolist, pcase-lambda, pcase-setq.
(defun keys (alist)
  (let (ks)
    (pcase-dolist (`(,k . ,_) alist)
      (push k ks))
    ks))
(defalias 'first-of (pcase-lambda (`(,x . ,_)) x))
(defun set-both (pair)
  (let (a b)
    (pcase-setq `(,a ,b) pair)
    (list a b)))

;; pcase-exhaustive: a value no clause matches, none, and one that
;; depends on a function.
(defun direction (d)
  (pcase-exhaustive d
    ('north 0)
    ('south 180)))
(defun kind (x)
  (pcase-exhaustive x
    ((pred consp) 'cons)
    ((pred atom) 'atom)))
(defun checked (x)
  (pcase-exhaustive x
    ((pred valid-p) 'ok)
    ((pred stringp) 'text)))

;; A vector, and a repeated variable.
(defun pair-of (x)
  (pcase x
    (`[,a ,b] (list a b))
    (`(,a ,a) (list 'twice a))))

;; Clauses no value reaches.
(defun shadowed (x)
  (pcase x
    ((pred stringp) 'string)
    ("literal" 'never)
    ((or (pred symbolp) (pred numberp)) 'atom)
    ((pred integerp) 'never-either)
    (_ 'other)))

;; A pred with an argument, and a let pattern.
(defun small-double (x)
  (pcase x
    ((and (pred integerp) (pred (> 10)) (let y (* x 2))) y)
    ((pred (< 100)) 'large)))

;; A constant subject.
(defun constant ()
  (pcase 'b
    ('a 1)
    ('b 2)))

;; cond* with match* and bind*.
(defun describe (x)
  (cond*
   ((bind* (n (length x))))
   ((match* `(,head . ,tail) x) (list 'cons head tail n))
   ((stringp x) (list 'string n))
   (t 'other)))

;; A pattern inside a backquote, and the length of a list.
(defun head-string (x)
  (pcase x
    (`(,(and (pred stringp) s) . ,_) s)
    ((app length 0) 'empty)))

;; cond* with bind-and*.
(defun both (a b)
  (cond* ((bind-and* (x a) (y b)) (list x y))
         (t nil)))
