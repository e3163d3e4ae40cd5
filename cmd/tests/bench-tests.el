;;; bench-tests.el --- the benchmarks' measuring functions, checked  -*- lexical-binding: t -*-

;; ERT tests of bench-output.el and bench-runtime.el (suite `bench'):
;;   emacs -Q --batch -L cmd/tests -L cmd/tests/conformance \
;;     -l bench-tests.el -f ert-run-tests-batch-and-exit
;; Each figure the benchmarks print is computed here on a small input whose
;; figures are known, so that a benchmark that miscounts fails a test.

(require 'ert)
(require 'bench-output)
(require 'bench-runtime)

(defmacro bench-tests-wrap (&rest body)
  "A user's macro: its arguments are code, left unexpanded by the benchmark."
  `(progn ,@body))

(defmacro bench-tests-copy (&rest body)
  "A user's macro that copies its body, as `cl-symbol-macrolet' may."
  `(progn ,@(copy-tree body)))

(defun bench-tests--heads (tree)
  "The symbols in car position anywhere in TREE."
  (let ((heads '()))
    (bench-output-lists (lambda (x) (when (symbolp (car x)) (push (car x) heads)))
                        tree)
    heads))

(ert-deftest bench-tests-size-depth ()
  "Conses and atoms (terminators included, a vector one plus its elements)."
  (should (equal (bench-output--size-depth '(a (b c) [d])) '(12 . 2)))
  (should (equal (bench-output--size-depth 'a) '(1 . 0)))
  (should (equal (bench-output--size-depth '(a . b)) '(3 . 1)))
  (should (equal (bench-output--size-depth '((((x))))) '(9 . 4))))

(ert-deftest bench-tests-temporaries ()
  "Binding sites of generated names, used once, never used, scopes."
  (let ((code '(let* ((pcx--x0 (car-safe v)) (pcx--x1 (cdr-safe v))
                       (pcx--x3 (car-safe pcx--x1)))
                 (if (consp pcx--x3)
                     (let ((a pcx--x0)) (list a pcx--x1))
                   (let ((pcx--x2 v))
                     (let ((pcx--x0 1)) (setq pcx--x0 2)))))))
    ;; x0 (outer): 1 use; x1: 2 (x3's init reads it); x3: 1; x2: none;
    ;; x0 (inner): 1, the setq.
    (should (equal (butlast (bench-output-temporaries code #'bench-output--pcx-name-p))
                   '(5 3 1))))
  (let* ((x (make-symbol "x0")) (f (make-symbol "pcase-0"))
         (code `(let* ((,f (lambda (,x) (list ,x ,x))))
                  (dolist (,x l) (funcall ,f ,x))
                  (condition-case ,x (foo) (error (ignore ,x))))))
    ;; f: 1; the lambda's x: 2; dolist's x: 1; condition-case's x: 1.
    (should (equal (butlast (bench-output-temporaries code #'bench-output--uninterned-p))
                   '(4 3 0)))))

(ert-deftest bench-tests-emacs-expansion ()
  "Only the family is expanded, nested ones too, user code as written."
  (let* ((form '(pcase x
                  (1 (when y (pcase z (2 'two) (_ 'other))))
                  (2 (bench-tests-copy (pcase-setq `(,a) w) a))
                  (_ (bench-tests-wrap (pcase-let ((`(,a . ,b) w)) (list a b))))))
         (exp (let ((lexical-binding t)) (bench-output-emacs-expand form)))
         (heads (bench-tests--heads exp)))
    (should-not (cl-intersection heads bench-output-heads))
    (should (memq 'when heads))
    (should (memq 'bench-tests-wrap heads))
    (should (memq 'bench-tests-copy heads))
    (should (equal (eval `(let ((x 1) (y t) (z 2) (w nil)) ,exp) t) 'two))
    (should (equal (eval `(let ((x 0) (y t) (z 2) (w '(3 . 4))) ,exp) t) '(3 4)))
    (should (equal (eval `(let ((x 2) (w '(5)) (a nil)) ,exp) t) 5))))

(ert-deftest bench-tests-byte-code ()
  "Code bytes, constants, closures, shared-code closures and switches."
  (let ((fig (bench-output-code-figures
              (car (bench-output-compile
                    '(cond ((eq x 'a) 1) ((eq x 'b) 2) ((eq x 'c) 3) ((eq x 'd) 4))
                    '(x) t)))))
    (should (= (aref fig 4) 1))
    (should (= (aref fig 2) 0))
    (should (> (aref fig 0) 0)))
  ;; One closure the expansion makes for shared code (it captures `a'
  ;; and is captured itself), one the user's lambda makes.
  (let* ((code '(let* ((pcx--pcase-0 (lambda () (list a))))
                  (mapcar (lambda (_) (funcall pcx--pcase-0)) l)))
         (fig (bench-output--compile-side code #'bench-output--pcx-name-p '(a l) t)))
    (should (= (plist-get fig :closures) 2))
    (should (= (plist-get fig :shared-closures) 1))
    (should (= (plist-get fig :switches) 0))))

(ert-deftest bench-tests-free-variables ()
  "Both sides are compiled with the free variables of either as arguments."
  (let ((figs (bench-output--compile-both '(if (consp v) (car v) w)
                                          '(if (consp v) (car v) w) t)))
    (should (equal (car figs) (cadr figs)))
    (should-not (cl-some (lambda (w) (string-match-p "free variable" w))
                         (plist-get (car figs) :warnings)))))

(ert-deftest bench-tests-coverage ()
  "The clauses an argument list reaches are counted, nested ones too."
  (let ((def '(defun bench-tests--f (x)
                (pcase x
                  ('a (pcase-exhaustive (car-safe x) (_ 1)))
                  ((pred stringp) 2)
                  (_ 3)))))
    (should (equal (bench-runtime--coverage 'bench-tests--f def [(nil a) (nil "s")] nil)
                   '(3 . 4)))
    (should (equal (bench-runtime--coverage 'bench-tests--f def [(nil b)] nil)
                   '(1 . 4)))))

(ert-deftest bench-tests-closures-per-call ()
  "make-closure calls are counted per call of the function."
  (fset 'bench-tests--g (let ((lexical-binding t))
                         (byte-compile '(lambda (l n) (mapcar (lambda (e) (+ e n)) l)))))
  (should (= (bench-runtime--closures-per-call 'bench-tests--g [(nil (1 2) 1) (nil nil 2)] nil)
             1.0)))

;;; bench-tests.el ends here
