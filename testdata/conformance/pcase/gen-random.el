;;; gen-random.el --- random pcase cases, expected values from Emacs  -*- lexical-binding: t -*-
;; Usage: emacs -Q --batch -l random-prelude.el -l gen-random.el SEED N > cases.tsv
;; Prints N random pcase-family forms in the format of cases.tsv, with the
;; value and call log Emacs's own pcase gives (forms Emacs refuses to
;; expand are left out).  Patterns mix every core pattern, backquote,
;; impure and logging predicates, functions that signal on some values
;; (car, nth, length, symbol-name, 1+, zerop, <), the `_' placeholder,
;; guards reading pattern variables, repeated variables, `or' of one or no
;; alternative and the dontcare idiom; the forms are run under an outer
;; binding of the variables, so guards that see them unbound read the
;; outer values.

(defvar pcx-gen--vars '(a b c))
(defvar pcx-gen--preds '(pcx-p1 pcx-p2 consp symbolp integerp stringp vectorp
                         null atom pcx-alt numberp zerop))
(defvar pcx-gen--consts '("'x" "'y" "1" "2" "\"s\"" "'nil" "'(1 2)" "1.5" ":k"))
(defvar pcx-gen--values '("'x" "'y" "1" "2" "\"s\"" "nil" "'(1 2)" "'(x)" "'(1 . 2)"
                          "[1 2]" "[x]" "1.5" ":k" "'((1) 2)" "'(x 1)"))

(defun pcx-gen--pick (l) (nth (random (length l)) l))
;; Nothing here may load byte-opt (seq.el does): its `side-effect-free'
;; properties would make Emacs's pcase evaluate predicates while expanding
;; (pcase.md 3.4), which pcexpand never does.
(defun pcx-gen--take (l n) (butlast l (- (length l) n)))
(defun pcx-gen--var () (symbol-name (pcx-gen--pick pcx-gen--vars)))
(defun pcx-gen--n (lo hi) (+ lo (random (- hi lo))))
(defun pcx-gen--join (f n) (mapconcat (lambda (_) (funcall f)) (number-sequence 1 n) " "))

(defun pcx-gen--qpat (d)
  (if (zerop (random 4))
      (pcx-gen--pick '("x" "y" "1" "\"s\""))
    (concat "," (pcx-gen--pat d))))

(defun pcx-gen--pat (d)
  (if (<= d 0)
      (pcx-gen--pick (append '("_") (mapcar #'symbol-name pcx-gen--vars)
                             (pcx-gen--take pcx-gen--consts 6)))
    (let ((sub (lambda () (pcx-gen--pat (1- d))))
          (q (lambda () (pcx-gen--qpat (1- d)))))
      (pcase (random 16)
        (0 (pcx-gen--var))
        (1 (pcx-gen--pick pcx-gen--consts))
        (2 (format "(pred %s)" (pcx-gen--pick pcx-gen--preds)))
        (3 (format "(pred (not %s))" (pcx-gen--pick pcx-gen--preds)))
        (4 (format "(guard (pcx-guard %s))" (pcx-gen--pick '("a" "b" "c" "'k"))))
        (5 (format "(app pcx-f %s)" (funcall sub)))
        (6 (format "(app %s %s)"
                   (pcx-gen--pick '(car-safe pcx-g length car cdr "(nth 1)" symbol-name 1+
                                    "(nth _ '(a b))" "(lambda (_) 'k)"))
                   (funcall sub)))
        (7 (format "(and %s)" (pcx-gen--join sub (pcx-gen--n 1 4))))
        (8 (format "(or %s)" (pcx-gen--join sub (pcx-gen--pick '(0 1 2 2 2 3 3)))))
        (9 (format "`(%s)" (pcx-gen--join q (pcx-gen--n 1 3))))
        (10 (format "`(%s . %s)" (funcall q) (funcall q)))
        (11 (format "`[%s]" (pcx-gen--join q (random 3))))
        (12 (format "(let %s (pcx-tick %s))" (funcall sub)
                    (pcx-gen--pick (pcx-gen--take pcx-gen--consts 5))))
        (13 (if (zerop (random 2))
                (format "(pred (pcx-p3 %s))" (pcx-gen--pick '("a" "b" "c" "'k")))
              (format "(pred %s)" (pcx-gen--pick '("(< 1)" "(> _ 1)" "(< 0 _ 3)")))))
        (14 (format "(app (pcx-h %s) %s)" (pcx-gen--pick '("a" "b" "c" "1")) (funcall sub)))
        (_ (format "(or %s pcase--dontcare)" (funcall sub)))))))

(defun pcx-gen--body ()
  (let ((val (pcx-gen--pick pcx-gen--values))
        (pat (lambda () (pcx-gen--pat 3)))
        (clauses (lambda ()
                   (let ((j -1))
                     (pcx-gen--join (lambda () (format "(%s (list %d a b c))"
                                                       (pcx-gen--pat 3) (setq j (1+ j))))
                                    (pcx-gen--n 1 5))))))
    (pcase (random 10)
      (0 (format "(pcase-exhaustive (pcx-val %s) %s)" val (funcall clauses)))
      (1 (format "(pcase-let ((%s (pcx-val %s))) (list a b c))" (funcall pat) val))
      (2 (format "(pcase-let ((%s (pcx-val %s)) (%s (pcx-val %s))) (list a b c))"
                 (funcall pat) val (funcall pat) (pcx-gen--pick pcx-gen--values)))
      (3 (format "(pcase-let* ((%s (pcx-val %s)) (%s (pcx-val (list a %s)))) (list a b c))"
                 (funcall pat) val (funcall pat) (pcx-gen--pick pcx-gen--values)))
      (4 (format "(list (pcase-setq %s (pcx-val %s)) a b c)" (funcall pat) val))
      (5 (format "(let (r) (pcase-dolist (%s (list %s %s)) (push (list a b c) r)) r)"
                 (funcall pat) val (pcx-gen--pick pcx-gen--values)))
      (6 (format "(funcall (pcase-lambda (%s &optional %s) (list a b c)) %s)"
                 (funcall pat) (pcx-gen--pat 2) val))
      (_ (format "(pcase (pcx-val %s) %s)" val (funcall clauses))))))

(defun pcx-gen--run (form)
  "Emacs's value and log for FORM, or nil when Emacs cannot expand it."
  (let ((exp (condition-case nil (macroexpand-all (car (read-from-string form)))
               (error 'refused))))
    (pcx-reset)
    (unless (eq exp 'refused)
      (let ((v (condition-case err (let ((pcx-running t))
                                     (prin1-to-string (eval exp t)))
                 (error (format "ERROR:%S" err)))))
        (list v (prin1-to-string (reverse pcx-log)))))))

(when (featurep 'byte-opt)
  (error "byte-opt is loaded: expected values would not be Emacs -Q's"))
(let* ((seed (nth 0 command-line-args-left))
       (n (string-to-number (nth 1 command-line-args-left))))
  (setq command-line-args-left nil)
  (random seed)
  (dotimes (i n)
    (let* ((form (format "(let ((a 'oa) (b 'ob) (c 'oc)) (ignore a b c) %s)" (pcx-gen--body)))
           (r (let ((inhibit-message t)) (pcx-gen--run form))))
      (when (and r (not (string-match-p "\t\\|\n" (car r))))
        (princ (format "r%s-%d\t%s\t%s\t%s\t\trandom\n" seed i form
                       (car r) (cadr r))))))
  (when (featurep 'byte-opt)
    (error "byte-opt got loaded while generating")))
