;;; pcase-behaviour-tests.el --- pcase's documented behaviours, run after expansion  -*- lexical-binding: t -*-

;;; Commentary:

;; The behaviours that Emacs's own pcase test suite
;; (test/lisp/emacs-lisp/pcase-tests.el, pcase.md section 10) checks,
;; restated as tests of our own.  This file is not loaded as it is: the
;; suite (behaviour.sh) expands it with pcexpand, checks that no
;; pcase-family form is left, and runs the expansion's tests in Emacs
;; 30.1, loaded from source and byte-compiled, with the pcase-family
;; macros made to fail if anything still used them.  So each `should'
;; below holds of pcexpand's expansion, not of Emacs's.
;;
;; Emacs's tests that look into Emacs's own expansion (which functions
;; `macroexpand-all' of a pcase form calls) or into pcase's internal
;; tables have no counterpart as such.  Where they state a behaviour (an
;; `or' of constants is one membership test; a clause that cannot match
;; is dropped; a body is not copied; the exclusivity answers), it is
;; checked here on pcexpand's expansion: from the body of an interpreted
;; function, or from what a clause does.

;;; Code:

(require 'ert)
(require 'cl-lib)
(require 'rx)

;;;; Helpers

(defun pcx-bt-mentions (fn form)
  "Does FORM (a tree) contain a call whose head is FN?"
  (let ((stack (list form)) (found nil))
    (while (and stack (not found))
      (let ((x (pop stack)))
        (when (consp x)
          (if (eq (car-safe x) fn)
              (setq found t)
            (while (consp x)
              (push (car x) stack)
              (setq x (cdr x)))))))
    found))

(defun pcx-bt-count (atom form)
  "How many times ATOM occurs as an element of a list in FORM."
  (let ((stack (list form)) (n 0))
    (while stack
      (let ((x (pop stack)))
        (while (consp x)
          (if (eq (car x) atom)
              (setq n (1+ n))
            (push (car x) stack))
          (setq x (cdr x)))))
    n))

(defun pcx-bt-body (fn)
  "The body of the interpreted function FN, or skip the test when FN was
byte-compiled (its expansion is then no longer there to look at)."
  (let ((f (symbol-function fn)))
    (unless (interpreted-function-p f)
      (ert-skip (list 'byte-compiled fn)))
    (aref f 1)))

;;;; app on a cons, with quoted results

(ert-deftest pcx-bt-app-quoted ()
  ;; The first clause's app gives 1, not 2: only the second matches.
  (should (eq (pcase '(1 . 2) ((app car '2) 'first) ((app car '1) 'second))
              'second))
  (should (equal (pcase (list 7 8) ((app cdr '(8)) 'cdr) (_ 'other)) 'cdr)))

;;;; What is known after a test must not be misapplied

(ert-deftest pcx-bt-cdr-atom ()
  ;; A dotted pair whose cdr is an atom: the first clause matches; the
  ;; later (pred consp) on the whole value is not what decides.
  (should (equal (pcase '(4 . 5)
                   (`(,h . ,(and (pred atom) tail)) (list h tail))
                   ((pred consp) 'cons))
                 '(4 5)))
  (should (equal (pcase '(4 . 5)
                   (`(,h . ,(and (pred (not consp)) tail)) (list h tail))
                   ((pred consp) 'cons))
                 '(4 5)))
  ;; and when the cdr is a cons, the later clause does.
  (should (eq (pcase '(4 5)
                (`(,_ . ,(pred atom)) 'atom)
                ((pred consp) 'cons))
              'cons)))

;;;; A pattern macro of the file

(pcase-defmacro pcx-bt-minus (pat n)
  "Match when the value minus N matches PAT."
  `(app (lambda (v) (- v ,n)) ,pat))

(ert-deftest pcx-bt-pattern-macro ()
  (should (= (pcase 10 ((pcx-bt-minus r 4) r)) 6))
  (should (eq (pcase 10 ((pcx-bt-minus 1 4) 'one) ((pcx-bt-minus 6 4) 'six)) 'six)))

;;;; An or of constants is one membership test

(defun pcx-bt-or-symbols (x) (pcase x ((or 'red 'green 'blue) 'colour) (_ 'other)))
(defun pcx-bt-or-numbers (x) (pcase x ((or 10 20 'thirty) 'found) (_ 'other)))
(defun pcx-bt-or-strings (x) (pcase x ((or "ten" 20 'thirty) 'found) (_ 'other)))
(defun pcx-bt-or-no-symbol (x) (pcase x ((or "ten" 20 30) 'found) (_ 'other)))
(defun pcx-bt-or-after (x)
  (pcase x ("ten" 'a) (20 'b) ((or "ten" 20 30) 'c) (_ 'd)))

(ert-deftest pcx-bt-or-constants ()
  (should (equal (mapcar #'pcx-bt-or-symbols '(red blue yellow "red"))
                 '(colour colour other other)))
  (should (equal (mapcar #'pcx-bt-or-numbers '(10 20 30 thirty 10.0))
                 '(found found other found other)))
  (should (equal (mapcar #'pcx-bt-or-strings (list "ten" (string ?t ?e ?n) 20 'thirty "x"))
                 '(found found found found other)))
  (should (equal (mapcar #'pcx-bt-or-no-symbol '("ten" 30 thirty))
                 '(found found other)))
  (should (equal (mapcar #'pcx-bt-or-after '("ten" 20 30 40)) '(a b c d))))

(ert-deftest pcx-bt-or-constants-shape ()
  ;; Symbols: memq; numbers and symbols: memql; a string among them:
  ;; member; no symbol and a string: neither memq nor memql.
  (should (pcx-bt-mentions 'memq (pcx-bt-body 'pcx-bt-or-symbols)))
  (should (pcx-bt-mentions 'memql (pcx-bt-body 'pcx-bt-or-numbers)))
  (should (pcx-bt-mentions 'member (pcx-bt-body 'pcx-bt-or-strings)))
  (should-not (pcx-bt-mentions 'memq (pcx-bt-body 'pcx-bt-or-no-symbol)))
  (should-not (pcx-bt-mentions 'memql (pcx-bt-body 'pcx-bt-or-no-symbol)))
  ;; After clauses for "ten" and 20, what is left of the or is 30 alone.
  (should-not (pcx-bt-mentions 'memq (pcx-bt-body 'pcx-bt-or-after)))
  (should-not (pcx-bt-mentions 'member (pcx-bt-body 'pcx-bt-or-after))))

;;;; Vectors and quoted elements

(ert-deftest pcx-bt-vectors ()
  (should (= (pcase [3 4] (`[,a] a) (`[,a ,b] (* a b))) 12))
  (should (eq (pcase [3] (`[,_ ,_] 'two) (`[,_] 'one)) 'one))
  (should (eq (pcase [1 2] (`[1 ,'2] 'yes)) 'yes))
  (should (eq (pcase '(1 2) (`(1 ,'2) 'yes)) 'yes))
  (should (eq (pcase [1 3] (`[1 ,'2] 'yes) (_ 'no)) 'no)))

;;;; A clause that cannot match is dropped, a body is not copied

(defun pcx-bt-dropped (x)
  (pcase x
    (`(,_ . ,_) (list 'any-cons x))
    ('(p q) (pcx-bt-never-called))))

(defun pcx-bt-once (x)
  (pcase x
    (`((,(or 'k1 'k2))) (list 'one x))
    ('(m) (list 'two x))
    ('(n) (list 'pcx-bt-third x))))

(ert-deftest pcx-bt-dropped-and-shared ()
  (should (equal (pcx-bt-dropped '(p q)) '(any-cons (p q))))
  (should (equal (pcx-bt-dropped 'p) nil))
  (should (equal (mapcar #'pcx-bt-once '(((k2)) (m) (n) (o)))
                 '((one ((k2))) (two (m)) (pcx-bt-third (n)) nil))))

(ert-deftest pcx-bt-shared-shape ()
  ;; The body of the third clause is reached from two places (after each
  ;; failed test of the first clause's nested or) but written once.
  (should (= (pcx-bt-count 'pcx-bt-third (pcx-bt-body 'pcx-bt-once)) 1)))

(ert-deftest pcx-bt-dropped-shape ()
  "Emacs drops the clause '(p q): a value that is not a cons cannot be
equal to a list.  pcexpand's decision DAG does not know yet that an
`equal' test against a cons constant implies `consp', so it keeps the
clause (and does not warn that it is unreachable)."
  :expected-result :failed
  (should-not (pcx-bt-mentions 'pcx-bt-never-called (pcx-bt-body 'pcx-bt-dropped))))

;;;; Guards on variables bound by let patterns

(ert-deftest pcx-bt-let-guards ()
  ;; Both guards read a variable v, but not the same: each must be
  ;; tested with its own binding.
  (let ((f (lambda (flag)
             (pcase 'ignored
               ((and (let v flag) (guard v)) 'first)
               ((and (let v (not flag)) (guard v)) 'second)))))
    (should (eq (funcall f 'yes) 'first))
    (should (eq (funcall f nil) 'second))))

;;;; A pattern variable read through a local macro

(ert-deftest pcx-bt-local-macro ()
  (let ((who 'outside))
    (ignore who)
    (should (equal (cl-macrolet ((tell () `(list 'who who)))
                     (pcase-let ((`(,who ,_other) '(inside 9)))
                       (tell)))
                   '(who inside)))))

;;;; or alternatives that bind different variables

(ert-deftest pcx-bt-or-variables ()
  (let ((f (lambda (v)
             (pcase v
               ((or (and 'left (let p 1) (let q 2))
                    (and 'right (let r 3) (let s 4)))
                (list p q r s))))))
    (should (equal (funcall f 'left) '(1 2 nil nil)))
    (should (equal (funcall f 'right) '(nil nil 3 4)))
    (should (equal (funcall f 'middle) nil))))

;;;; cl-type

(ert-deftest pcx-bt-cl-type ()
  (should (eq (pcase 7 ((cl-type integer) 'int)) 'int))
  (should (eq (pcase 1 ((cl-type (integer 0 2)) 'small) (_ 'big)) 'small))
  (should (eq (pcase 5 ((cl-type (integer 0 2)) 'small) (_ 'big)) 'big))
  (should (eq (pcase "s" ((cl-type string) 'str)) 'str)))

(defun pcx-bt-unknown-type (v)
  (pcase v ((cl-type pcx-bt-no-such-type) 'yes) (_ 'no)))

(ert-deftest pcx-bt-cl-type-unknown ()
  ;; An unknown type is an error when the test runs (the byte compiler
  ;; says so too, at compile time).
  (should-error (pcx-bt-unknown-type 1)))

;;;; pcase-setq

(ert-deftest pcx-bt-setq ()
  (should (equal (let (a b) (pcase-setq `((,a) (,b)) '((5) (6))) (list a b))
                 '(5 6)))
  ;; Destructuring nil sets every variable to nil.
  (should (equal (let ((a 'old) (b 'old)) (pcase-setq `(tag ,a ,b) nil) (list a b))
                 '(nil nil)))
  (should (equal (let (a b) (pcase-setq `[,a ,b] [5 6]) (list a b)) '(5 6)))
  ;; A vector pattern on nil is an error (aref of nil).
  (should-error (let (a b) (pcase-setq `[,a ,b] nil) (list a b)))
  ;; Several pairs, in order; a later pair sees the earlier assignment.
  (should (equal (let (a b) (pcase-setq a 5 b 6) (list a b)) '(5 6)))
  (should (= (let (a) (pcase-setq a 5 `(,a) '(6)) a) 6))
  (should (equal (let (a b) (pcase-setq a 5 b (* a 2)) (list a b)) '(5 10)))
  ;; An or pattern sets the variables of the other alternative to nil.
  (should (equal (let (vec item copy)
                   (pcase-setq (or `(,item) vec) [7 8]
                               copy vec
                               (or `(,item) vec) '(9))
                   (list vec copy item))
                 '(nil [7 8] 9))))

(ert-deftest pcx-bt-setq-arguments ()
  ;; An odd number of arguments: wrong-number-of-arguments when the form
  ;; runs (ERT's should-error turns the expansion's error into that
  ;; signal), and nothing is assigned.
  (let ((a 'kept))
    (should (equal (should-error (pcase-setq a 1 b) :type 'wrong-number-of-arguments)
                   '(wrong-number-of-arguments pcase-setq 3)))
    (should (eq a 'kept)))
  ;; Fewer than two: the arity error of pcase-setq's macro (two required
  ;; arguments), as Emacs signals it.
  (should (equal (should-error (pcase-setq a) :type 'wrong-number-of-arguments)
                 '(wrong-number-of-arguments (2 . 2) 1))))

;;;; Exclusivity: what one predicate says of another

(ert-deftest pcx-bt-exclusivity ()
  ;; A lambda list is a function and a cons: not exclusive.
  (should (eq (pcase '(lambda () 1) ((and (pred functionp) (pred consp)) 'both) (_ 'no))
              'both))
  (should (eq (pcase '(lambda () 1) ((pred functionp) 'fun) ((pred consp) 'cons)) 'fun))
  ;; A keyword is a symbol: not exclusive.
  (should (eq (pcase :k ((and (pred keywordp) (pred symbolp)) 'both) (_ 'no)) 'both))
  ;; Exclusive pairs: the second test decides after the first failed.
  (should (eq (pcase "s" ((pred keywordp) 'kw) ((pred stringp) 'str)) 'str))
  (should (eq (pcase "s" ((pred functionp) 'fun) ((pred stringp) 'str)) 'str))
  (let ((code (byte-compile (lambda () 1))))
    (should (eq (pcase code ((pred consp) 'cons) ((pred compiled-function-p) 'code))
                'code))))

;;;; pred of atom, nlistp, identity, not

(ert-deftest pcx-bt-pred-classes ()
  (cl-flet ((atom-p (x) (pcase x ((pred atom) 'yes) (_ 'no)))
            (nlist-p (x) (pcase x ((pred nlistp) 'yes) (_ 'no)))
            (true-p (x) (pcase x ((pred identity) 'yes) (_ 'no)))
            (false-p (x) (pcase x ((pred not) 'yes) (_ 'no))))
    (should (equal (mapcar #'atom-p '(s nil (c))) '(yes yes no)))
    (should (equal (mapcar #'nlist-p '(s nil (c))) '(yes no no)))
    (should (equal (mapcar #'true-p '(s nil (c))) '(yes no yes)))
    (should (equal (mapcar #'false-p '(s nil (c))) '(no yes no)))))

;;;; rx patterns see rx-let definitions

(ert-deftest pcx-bt-rx-let ()
  (should (eq (rx-let ((tata "ab")) (pcase "abc" ((rx tata) 'toto))) 'toto))
  (should (equal (rx-let ((pair (a b) (seq a "-" b)))
                   (pcase "x-y!" ((rx bos (pair (let l alpha) (let r alpha))) (list l r))))
                 '("x" "y")))
  (should (eq (rx-let ((tata "ab")) (pcase "zzz" ((rx tata) 'toto) (_ 'none))) 'none)))

;;; pcase-behaviour-tests.el ends here
