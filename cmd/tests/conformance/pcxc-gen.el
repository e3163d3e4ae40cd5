;;; pcxc-gen.el --- conformance harness: random pcase tests  -*- lexical-binding: t -*-

;; Generates pcase-family forms from a seed: every pattern kind (_, SYMBOL,
;; 'VAL, keywords, integers, strings, pred with a symbol, (not F), (F ARGS)
;; and lambdas, guard, app, and, or, let, backquote over conses, lists and
;; vectors, seq, map, cl-type, rx), nested, in several clauses whose bodies
;; return a clause tag and the bound variables, under every entry point.
;; Predicates, guards, app functions and let expressions are often harness
;; functions (below) that record their calls and answer deterministically
;; from their arguments, so the number and order of calls is compared too.
;;
;; Many predicates and app functions signal on some values (car, length,
;; nth, symbol-name, 1+ on the wrong type, < and zerop on non-numbers), so
;; that the order in which calls that can signal are made is compared too.
;; The `_' placeholder appears in pred and app calls, and map patterns
;; have DEFAULT values.  Kept out: `special-form-p', where pcexpand
;; departs from Emacs 30.1 on purpose (pcase.md 9), and `,@' and `...',
;; which only make both sides refuse the form.  Emacs 30 calls app
;; functions on constants while it compiles (pcase.md 3.7): the harness's
;; functions refuse to be called then (see `pcxc-note'), as a file's own
;; functions would not be defined, and no generated predicate is marked
;; side-effect-free in the reference Emacs.

(require 'pcxc-lib)

;;;; Functions the generated forms call

(defun pcxc-p1 (x)
  "A logged predicate."
  (memq (pcxc-pick (pcxc-note 'pcxc-p1 (list x)) '(0 1 1)) '(1)))

(defun pcxc-p2 (x)
  "Another logged predicate, true less often."
  (eq 1 (pcxc-pick (pcxc-note 'pcxc-p2 (list x)) '(0 0 1))))

(defun pcxc-r2 (a x)
  "A logged two-argument predicate; the matched value comes last."
  (eq 1 (pcxc-pick (pcxc-note 'pcxc-r2 (list a x)) '(0 1))))

(defun pcxc-g (tag &rest vals)
  "A logged guard."
  (eq 1 (pcxc-pick (pcxc-note 'pcxc-g (cons tag vals)) '(0 1 1))))

(defun pcxc-f1 (x)
  "A logged function for app patterns: some part of X, or something else."
  (let ((choice (pcxc-pick (pcxc-note 'pcxc-f1 (list x)) '(0 1 2 3 4))))
    (pcase choice
      (0 x) (1 (car-safe x)) (2 (list x)) (3 'a) (_ (length (format "%S" x))))))

(defun pcxc-f2 (x)
  "Another logged function for app patterns."
  (pcxc-pick (pcxc-note 'pcxc-f2 (list x)) '(nil a 1 (1 2) (a . b) [a b] "a")))

(defun pcxc-fr (a x)
  "A logged two-argument function for app patterns."
  (pcxc-pick (pcxc-note 'pcxc-fr (list a x)) (list a x nil (cons a x))))

(defun pcxc-e (tag &rest vals)
  "A logged expression for let patterns."
  (pcxc-pick (pcxc-note 'pcxc-e (cons tag vals)) '(nil 1 a (1 2) "a" [1])))

(defun pcxc-b (tag &rest vals)
  "A logged body call."
  (pcxc-note 'pcxc-b (cons tag vals))
  tag)

;;;; Random numbers (the same in every Emacs)

(defvar pcxc-gen--state 1 "State of the generator.")

(defun pcxc-gen-seed (n)
  "Start the generator from the integer N."
  (setq pcxc-gen--state (1+ (logand (* (logxor n 61) 2654435761) #x7fffffff)))
  (dotimes (_ 3) (pcxc-rand 2)))

(defun pcxc-rand (n)
  "A random integer in 0..N-1."
  (setq pcxc-gen--state
        (logand (+ (* pcxc-gen--state 1103515245) 12345) #x7fffffff))
  (mod (ash pcxc-gen--state -8) n))

(defun pcxc-one-of (list)
  "A random element of LIST."
  (nth (pcxc-rand (length list)) list))

(defun pcxc-weighted (alist)
  "A random cdr of ALIST, chosen with the weights in the cars."
  (let ((r (pcxc-rand (apply #'+ (mapcar #'car alist)))))
    (while (>= r (caar alist))
      (setq r (- r (caar alist)) alist (cdr alist)))
    (cdar alist)))

(defun pcxc-chance (percent)
  "Non-nil with probability PERCENT/100."
  (< (pcxc-rand 100) percent))

;;;; Patterns

(defconst pcxc-gen-vars '(a b c x s) "Variable names; s is also a subject.")

(defvar pcxc-gen--bound nil "Variables bound so far in the current clause.")
(defvar pcxc-gen--ors 0 "`or' patterns generated in the current clause.")
(defvar pcxc-gen--tag 0 "Counter for tags of logged calls.")
(defvar pcxc-gen--s-subject nil
  "Non-nil while generating clauses of a pcase whose subject is `s'.
Only then may a guard assign `s' (the copyable-subject case of E#19).")

(defconst pcxc-gen-kinds
  '((3 . wild) (5 . var) (3 . symbol) (1 . keyword) (2 . integer) (1 . string)
    (1 . constant) (3 . pred) (1 . pred-not) (2 . pred-call) (2 . guard)
    (3 . app) (2 . and) (2 . or) (1 . let) (5 . backquote) (1 . seq)
    (1 . map) (1 . cl-type) (1 . rx))
  "Pattern kinds with their weights.")

(defconst pcxc-gen-leaf-kinds
  '((2 . wild) (4 . var) (3 . symbol) (1 . keyword) (2 . integer)
    (1 . string) (1 . constant) (2 . pred) (1 . pred-not) (1 . guard))
  "Kinds used where the pattern must not grow any deeper.")

(defconst pcxc-gen-preds
  '(integerp symbolp consp stringp vectorp null atom listp numberp keywordp
    floatp natnump sequencep arrayp booleanp functionp characterp zerop
    pcxc-p1 pcxc-p2 pcxc-p1)
  "Functions for (pred F); the real ones are pure (zerop signals on a
non-number).")

(defconst pcxc-gen-constants
  '(1.0 -0.0 0.5 (1 2) (a . b) [a b] [1] "a" (a) ((a . 1) (b . 2))
    1180591620717411303424 nil)
  "Values for quoted constant patterns.")

(defun pcxc-gen--tag ()
  "A new tag number for a logged call."
  (setq pcxc-gen--tag (1+ pcxc-gen--tag)))

(defun pcxc-gen--var ()
  "A variable pattern; it joins the bound variables."
  (let ((v (pcxc-one-of pcxc-gen-vars)))
    (unless (memq v pcxc-gen--bound)
      (setq pcxc-gen--bound (append pcxc-gen--bound (list v))))
    v))

(defun pcxc-gen--ref ()
  "A variable reference: usually one bound earlier in the clause."
  (if (and pcxc-gen--bound (pcxc-chance 85))
      (pcxc-one-of pcxc-gen--bound)
    (pcxc-one-of pcxc-gen-vars)))

(defun pcxc-gen--refs ()
  "Zero to two variable references."
  (cl-loop repeat (pcxc-rand 3) collect (pcxc-gen--ref)))

(defun pcxc-gen--atom ()
  "An atom usable as a constant inside a backquote or as a call argument."
  (pcxc-one-of '(a b foo 0 1 2 "a" :key nil 1.5)))

(defun pcxc-gen--pred-call ()
  "A FUN with arguments for (pred FUN): the value is passed last, or
where `_' stands."
  (pcase (pcxc-rand 9)
    (0 `(pcxc-r2 ,(pcxc-gen--ref)))
    (1 `(pcxc-r2 ',(pcxc-gen--atom)))
    (2 `(eq ',(pcxc-one-of '(a b foo))))
    (3 `(equal ',(pcxc-one-of '((1 2) "a" (a . b)))))
    (4 `(< ,(pcxc-one-of '(0 1 2))))
    (5 `(> _ ,(pcxc-one-of '(0 1 2))))
    (6 `(< 0 _ ,(pcxc-one-of '(2 3))))
    (7 `(memq _ '(,(pcxc-one-of '(a b)) 1 nil)))
    (_ `(lambda (v) (pcxc-p1 v)))))

(defun pcxc-gen--guard ()
  "The expression of a guard pattern."
  (pcase (pcxc-rand 8)
    ((or 0 1 2 3) `(pcxc-g ,(pcxc-gen--tag) ,@(pcxc-gen--refs)))
    (4 `(eq ,(pcxc-gen--ref) ',(pcxc-one-of '(a b 1))))
    (5 (pcxc-gen--ref))
    (6 (if pcxc-gen--s-subject
           `(progn (setq s ',(pcxc-one-of '(a b 1 (a)))) ,(pcxc-one-of '(nil t)))
         `(pcxc-g ,(pcxc-gen--tag))))
    (_ `(consp ,(pcxc-gen--ref)))))

(defun pcxc-gen--app-fun ()
  "A FUN for (app FUN PAT); many signal on some values."
  (pcase (pcxc-rand 19)
    (0 'car) (1 'cdr) (2 'car-safe) (3 'cdr-safe) (4 'length) (5 'type-of)
    (6 '(nth 1)) (7 'pcxc-f1) (8 'pcxc-f2) (9 `(pcxc-fr ,(pcxc-gen--ref)))
    (10 '(lambda (v) (pcxc-f1 v))) (11 '(not consp)) (12 'symbol-name)
    (13 '1+) (14 '(nth _ '(a b c))) (15 '(aref _ 0)) (16 'cadr)
    (17 '(lambda (_) 'k)) (_ 'pcxc-f1)))

(defun pcxc-gen--let-expr ()
  "The expression of a let pattern."
  (pcase (pcxc-rand 5)
    (0 `',(pcxc-gen--atom))
    (1 (pcxc-gen--ref))
    (2 `(list ,(pcxc-gen--ref)))
    (_ `(pcxc-e ,(pcxc-gen--tag) ,@(pcxc-gen--refs)))))

(defun pcxc-gen--or (depth)
  "An or pattern: often of constants, so that Emacs builds a member test."
  (setq pcxc-gen--ors (1+ pcxc-gen--ors))
  (let ((n (+ 2 (pcxc-rand 2))))
    (cons 'or
          (if (pcxc-chance 40)
              (cl-loop repeat n collect
                       (pcxc-one-of '('a 'b 'foo 1 2 "a" :key '1.0 'nil)))
            (cl-loop repeat n collect (pcxc-gen-pattern (1+ depth)))))))

(defun pcxc-gen--map ()
  "A map pattern, sometimes with DEFAULT values."
  (cons 'map
        (cl-loop repeat (1+ (pcxc-rand 2)) collect
                 (pcase (pcxc-rand 4)
                   (0 (intern (format ":%s" (pcxc-gen--var))))
                   (1 (pcxc-gen--var))
                   (2 `(',(pcxc-one-of '(a b :key 1)) ,(pcxc-gen-pattern 3)
                        ,(pcxc-one-of '(0 'd (pcxc-e 0)))))
                   (_ `(',(pcxc-one-of '(a b :key 1))
                        ,(pcxc-gen-pattern 3)))))))

(defun pcxc-gen--rx ()
  "An rx pattern."
  (pcase (pcxc-rand 4)
    (0 '(rx "a"))
    (1 '(rx bos (+ digit) eos))
    (2 `(rx (let ,(pcxc-gen--var) (+ alpha))))
    (_ `(rx (let ,(pcxc-gen--var) (+ digit)) (* nonl)))))

(defun pcxc-gen--seq (depth)
  "A seq pattern."
  (append '(seq)
          (cl-loop repeat (1+ (pcxc-rand 2))
                   collect (pcxc-gen-pattern (1+ depth)))
          (when (pcxc-chance 30)
            (list '&rest (pcxc-gen-pattern (1+ depth))))))

(defun pcxc-gen--q (depth)
  "The body of a backquote pattern."
  (let ((leaf (>= depth 4)))
    (pcase (if leaf (pcxc-rand 2) (pcxc-rand 7))
      (0 (list '\, (cond ((not leaf) (pcxc-gen-pattern (1+ depth)))
                         ((pcxc-chance 50) '_)
                         (t (pcxc-gen--var)))))
      (1 (pcxc-gen--atom))
      (2 (list '\, (pcxc-gen-pattern (1+ depth))))
      (3 (cons (pcxc-gen--q (1+ depth)) (pcxc-gen--q (1+ depth))))
      (4 (vconcat (cl-loop repeat (pcxc-rand 3)
                           collect (pcxc-gen--q (1+ depth)))))
      (_ (cl-loop repeat (1+ (pcxc-rand 3))
                  collect (pcxc-gen--q (1+ depth)))))))

(defun pcxc-gen--kind (depth)
  "The kind of the next pattern at DEPTH."
  (let ((kind (pcxc-weighted (if (>= depth 3) pcxc-gen-leaf-kinds
                               pcxc-gen-kinds))))
    (if (and (eq kind 'or) (>= pcxc-gen--ors 3)) 'and kind)))

(defun pcxc-gen-pattern (&optional depth)
  "A random pattern; DEPTH limits nesting."
  (let ((depth (or depth 0)))
    (pcase (pcxc-gen--kind depth)
      ('wild '_)
      ('var (pcxc-gen--var))
      ('symbol `',(pcxc-one-of '(a b foo nil t quote)))
      ('keyword (pcxc-one-of '(:a :key)))
      ('integer (pcxc-one-of '(0 1 2 3 42 -1)))
      ('string (pcxc-one-of '("" "a" "abc")))
      ('constant `',(pcxc-one-of pcxc-gen-constants))
      ('pred `(pred ,(pcxc-one-of pcxc-gen-preds)))
      ('pred-not `(pred (not ,(pcxc-one-of pcxc-gen-preds))))
      ('pred-call `(pred ,(pcxc-gen--pred-call)))
      ('guard `(guard ,(pcxc-gen--guard)))
      ('app `(app ,(pcxc-gen--app-fun) ,(pcxc-gen-pattern (1+ depth))))
      ('and (cons 'and (cl-loop repeat (pcxc-rand 4)
                                collect (pcxc-gen-pattern (1+ depth)))))
      ('or (pcxc-gen--or depth))
      ('let `(let ,(pcxc-gen-pattern (1+ depth)) ,(pcxc-gen--let-expr)))
      ('backquote (list '\` (pcxc-gen--q (1+ depth))))
      ('seq (pcxc-gen--seq depth))
      ('map (pcxc-gen--map))
      ('cl-type `(cl-type ,(pcxc-one-of '(integer string symbol list cons null
                                            (or integer string) (integer 0 2)
                                            vector number atom))))
      ('rx (pcxc-gen--rx)))))

;;;; Clauses and entry points

(defun pcxc-gen--fresh-clause ()
  "Forget the variables of the previous clause."
  (setq pcxc-gen--bound nil pcxc-gen--ors 0))

(defun pcxc-gen--tag-symbol (prefix n)
  "The symbol PREFIX followed by the number N, quoted."
  (list 'quote (intern (format "%s%d" prefix n))))

(defun pcxc-gen--body (n vars)
  "Body forms of clause N that may use VARS."
  (let ((result `(list ,(pcxc-gen--tag-symbol "c" n) ,@vars)))
    (pcase (pcxc-rand 20)
      ((or 0 1) `((pcxc-b ,n ,@vars) ,result))
      ((or 2 3) `((pcxc-b ,n ,@vars)))
      (4 nil)
      ((or 5 6) (list (pcxc-gen--nested n vars)))
      (_ (list result)))))

(defun pcxc-gen--nested (n vars)
  "A pcase nested in the body of clause N, on one of VARS or slot 1."
  (let ((subject (if vars (pcxc-one-of vars) '(pcxc-val 1)))
        (pcxc-gen--bound nil)
        (pcxc-gen--ors 0))
    (let ((pat (pcxc-gen-pattern 1)))
      `(pcase ,subject
         (,pat (list ,(pcxc-gen--tag-symbol "n" n) ,@vars ,@pcxc-gen--bound))
         (_ (list ,(pcxc-gen--tag-symbol "m" n) ,@vars))))))

(defun pcxc-gen--clause (n)
  "Clause N of a pcase: (PATTERN BODY...)."
  (pcxc-gen--fresh-clause)
  (let ((pat (pcxc-gen-pattern)))
    (cons pat (pcxc-gen--body n pcxc-gen--bound))))

(defun pcxc-gen--pcase (head)
  "A pcase or pcase-exhaustive form: (FORM PATTERN-LISTS KINDS)."
  (let* ((subject (pcxc-one-of '(pcxc-s (pcxc-val 0) s)))
         (clauses (let ((pcxc-gen--s-subject (eq subject 's)))
                    (cl-loop for n from 1 to (1+ (pcxc-rand 5))
                             collect (pcxc-gen--clause n))))
         (form `(,head ,subject ,@clauses)))
    (list (if (eq subject 's) `(let ((s pcxc-s)) ,form) form)
          (list (mapcar #'car clauses)) '(nil))))

(defun pcxc-gen--bindings (sequential)
  "Bindings of a pcase-let (pcase-let* if SEQUENTIAL) and their patterns."
  (pcxc-gen--fresh-clause)
  (let ((bindings '()) (pats '()) (k 0))
    (dotimes (_ (1+ (pcxc-rand 3)))
      (let ((pat (pcxc-gen-pattern)))
        (push (list pat (if (and sequential pcxc-gen--bound (pcxc-chance 20))
                            `(cons ,(pcxc-gen--ref) (pcxc-val ,k))
                          `(pcxc-val ,k)))
              bindings)
        (push pat pats)
        (setq k (1+ k))))
    (list (nreverse bindings) (nreverse pats))))

(defun pcxc-gen--let (head)
  "A pcase-let or pcase-let* form: (FORM PATTERN-LISTS KINDS).
The body is never empty: Emacs expands (pcase-let* BINDINGS) with no
body to nil without evaluating anything (its memo table takes the empty
body for a cached one), a quirk kept out of the random cases."
  (pcase-let ((`(,bindings ,pats) (pcxc-gen--bindings (eq head 'pcase-let*))))
    (list `(,head ,bindings ,@(or (pcxc-gen--body 1 pcxc-gen--bound)
                                  `((list 'c1 ,@pcxc-gen--bound))))
          (mapcar #'list pats) (mapcar #'ignore pats))))

(defun pcxc-gen--dolist ()
  "A pcase-dolist form collecting its bodies' values."
  (pcxc-gen--fresh-clause)
  (let ((pat (pcxc-gen-pattern)))
    (list `(let ((pcxc-r nil))
             (pcase-dolist (,pat (pcxc-val 0))
               (push (list ,@pcxc-gen--bound) pcxc-r))
             pcxc-r)
          (list (list pat)) '(list))))

(defun pcxc-gen--setq ()
  "A pcase-setq form returning its value and the variables afterwards."
  (pcase-let ((`(,bindings ,pats) (pcxc-gen--bindings nil)))
    (list `(let ,pcxc-gen-vars
             (list (pcase-setq ,@(apply #'append bindings)) ,@pcxc-gen-vars))
          (mapcar #'list pats) (mapcar #'ignore pats))))

(defun pcxc-gen--lambda ()
  "A pcase-lambda applied to one or two slot values."
  (pcxc-gen--fresh-clause)
  (let* ((p1 (pcxc-gen-pattern))
         (p2 (and (pcxc-chance 40) (pcxc-gen-pattern)))
         (args (if p2 (list p1 '&optional p2) (list p1)))
         (pats (if p2 (list p1 p2) (list p1))))
    (list `(funcall (pcase-lambda ,args (list ,@pcxc-gen--bound))
                    ,@(cl-loop for k below (length pats)
                               collect `(pcxc-val ,k)))
          (mapcar #'list pats) (mapcar #'ignore pats))))

(defun pcxc-gen-form ()
  "A random form: (FORM PATTERN-LISTS KINDS), one pattern list per slot."
  (setq pcxc-gen--tag 0)
  (pcase (pcxc-weighted '((40 . pcase) (10 . pcase-exhaustive)
                          (10 . pcase-let) (10 . pcase-let*)
                          (8 . pcase-dolist) (10 . pcase-setq)
                          (8 . pcase-lambda)))
    ((and head (or 'pcase 'pcase-exhaustive)) (pcxc-gen--pcase head))
    ((and head (or 'pcase-let 'pcase-let*)) (pcxc-gen--let head))
    ('pcase-dolist (pcxc-gen--dolist))
    ('pcase-setq (pcxc-gen--setq))
    ('pcase-lambda (pcxc-gen--lambda))))

(defconst pcxc-gen-wrapper '(lambda (pcxc-s) (ignore pcxc-s) pcxc-hole)
  "Wrapper of generated forms: they name their subjects themselves.")

(defun pcxc-gen--base ()
  "About half of the base pool, chosen at random."
  (seq-filter (lambda (_) (pcxc-chance 45)) pcxc-base-pool))

(defun pcxc-gen-case (seed i)
  "Random case number I of SEED, ready to run."
  (pcxc-gen-seed (+ (* seed 1000003) i))
  (pcase-let* ((`(,form ,pattern-lists ,kinds) (pcxc-gen-form))
               (base (pcxc-gen--base))
               (pools (cl-mapcar (lambda (pats kind)
                                   (pcxc-slot-pool pats kind base))
                                 pattern-lists kinds)))
    (list :id (format "random:%d:%d" seed i) :kind (format "random, seed %d" seed)
          :random t :flags '(lex)
          :form form :expected "=" :notes (format "seed %d case %d" seed i)
          :wrapper pcxc-gen-wrapper :inputs (pcxc-inputs pools))))

;;;; Shrinking

(defun pcxc--empty-let-p (form)
  "Non-nil if FORM contains a pcase-let or pcase-let* without a body.
Emacs expands those to nil, or not, depending on what it expanded
before (its memo table mistakes the empty body for a cached one)."
  (let ((stack (list form)) (found nil))
    (while (and stack (not found))
      (let ((x (pop stack)))
        (when (consp x)
          (when (and (memq (car x) '(pcase-let pcase-let*))
                     (proper-list-p x) (< (length x) 3))
            (setq found t))
          (while (consp x) (push (car x) stack) (setq x (cdr x))))))
    found))

(defun pcxc-shrink-candidates (form)
  "Forms a little smaller than FORM, biggest reductions first.
For every list inside FORM: the list without one of its elements (after
the first), and the list replaced by one of its elements.  Each is a
fresh copy (Emacs's pcase memo tables are keyed by the identity of
pattern objects), and forms with a body-less pcase-let are left out."
  (let ((out '()))
    (pcxc--shrink-walk form (lambda (replace) (push replace out)))
    (mapcar (lambda (f) (copy-tree f t))
            (seq-remove #'pcxc--empty-let-p (delete-dups (nreverse out))))))

(defun pcxc--shrink-walk (node emit &optional rebuild)
  "Call EMIT with each reduced whole form; REBUILD maps a new NODE to it."
  (let ((rebuild (or rebuild #'identity)))
    (when (and (consp node) (proper-list-p node))
      (let ((n (length node)))
        (dotimes (i n)
          (when (> i 0)
            (funcall emit (funcall rebuild (append (seq-take node i)
                                                   (nthcdr (1+ i) node)))))
          (when (consp (nth i node))
            (funcall emit (funcall rebuild (nth i node)))))
        (dotimes (i n)
          (let ((i i))
            (pcxc--shrink-walk
             (nth i node) emit
             (lambda (new)
               (funcall rebuild (append (seq-take node i) (list new)
                                        (nthcdr (1+ i) node)))))))))))

(provide 'pcxc-gen)

;;; pcxc-gen.el ends here
