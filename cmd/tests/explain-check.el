;;; explain-check.el --- check pcexpand's witnesses and unreachable clauses in Emacs  -*- lexical-binding: t -*-

;; Usage: emacs -Q --batch -l explain-check.el -f explain-check-main SRC JSONL
;;
;; SRC is a Lisp file, JSONL the output of `pcexpand --explain
;; --format=json SRC' and the messages of `pcexpand --message-format=json
;; SRC' (whose exhaustive-can-fail warnings carry their witness, nested
;; forms included).  For every pcase and pcase-exhaustive form the
;; records describe, the form is read back from SRC at its line and column
;; and Emacs's own pcase is run on values, with each clause body replaced
;; by a throw that names the clause:
;;
;; - a witness (a value no clause matches): pcase-exhaustive must signal
;;   "No clause matching", pcase must return nil, and no body may run;
;; - an unreachable clause: on at least 40 values (a fixed pool, the
;;   example value pcexpand built for every clause of the form, the
;;   clause's own first, and the witness) the clause is never chosen.
;;
;; Several SRC JSONL pairs may follow.  A SRC of `-' stands for the file
;; each record names (its "file", relative to the current directory), so
;; that one JSONL may hold the records of many files.  Prints one line of
;; counts per kind; exits 1 when a claim is wrong, 0 otherwise.  Forms
;; Emacs cannot evaluate here (a pattern macro or struct of a library not
;; loaded) are counted and named as skipped.

(require 'cl-lib)
(require 'seq)
(require 'map)
(require 'rx)
(require 'subr-x)
(require 'eieio)

(defvar explain-check-failures 0)
(defvar explain-check-counts nil "Alist (KEY . COUNT).")

(defun explain-check--count (key)
  (let ((cell (assq key explain-check-counts)))
    (if cell (setcdr cell (1+ (cdr cell)))
      (push (cons key 1) explain-check-counts))))

(defun explain-check--say (fmt &rest args)
  (princ (concat (apply #'format fmt args) "\n")))

(defun explain-check--fail (fmt &rest args)
  (setq explain-check-failures (1+ explain-check-failures))
  (explain-check--say "FAIL %s" (apply #'format fmt args)))

(defconst explain-check-pool
  (list nil t 0 1 -1 2 42 most-positive-fixnum (1+ most-positive-fixnum) 1.5 -0.0
        "" "foo" "a" "nil" 'foo 'bar 'a 'b 'quote :k :foo ?a
        '(a) '(a b) '(a . b) '(nil) '(quote foo) '(foo bar baz) '(1 2 3)
        '((a . 1)) '(:k 1) [] [a] [a b] [1 2 3] (record 'foo 1)
        (make-hash-table) (make-bool-vector 3 t) (symbol-function 'car))
  "Values every unreachable clause is tried on.")

(defun explain-check--read-at (file line column)
  "The form written in FILE at LINE and screen COLUMN (1-based)."
  (with-temp-buffer
    (insert-file-contents file)
    (goto-char (point-min))
    (forward-line (1- line))
    (move-to-column (1- column))
    (read (current-buffer))))

(defun explain-check--probe (form value)
  "FORM (a pcase or pcase-exhaustive) on VALUE with throwing bodies.
VALUE :own keeps FORM's own (constant) subject.
Returns (clause . I), (value . V) or (error . ERR)."
  (let* ((i -1)
         (inhibit-message t)
         (clauses (mapcar (lambda (cl)
                            (setq i (1+ i))
                            (list (car cl) `(throw 'explain-check (cons 'clause ,i))))
                          (cddr form)))
         (probe `(,(car form) ,(if (eq value :own) (cadr form) `',value) ,@clauses)))
    (condition-case err
        (catch 'explain-check (cons 'value (eval probe t)))
      (error (cons 'error err)))))

(defun explain-check--unusable (form)
  "Why Emacs cannot expand FORM's patterns here, or nil."
  (condition-case-unless-debug err
      (let ((inhibit-message t))
        (macroexpand-all `(,(car form) x ,@(mapcar (lambda (c) (list (car c) nil))
                                                        (cddr form))))
        nil)
    (error (format "%S" err))))

(defun explain-check--witness (where form witness)
  (let ((r (explain-check--probe form witness)))
    (pcase (car form)
      ('pcase-exhaustive
       (if (and (eq (car r) 'error)
                (string-prefix-p "No clause matching" (or (cadr (cdr r)) "")))
           (explain-check--count 'witness-exhaustive)
         (explain-check--fail "%s: witness %S gave %S, not \"No clause matching\""
                              where witness r)))
      (_
       (if (equal r '(value))
           (explain-check--count 'witness-pcase)
         (explain-check--fail "%s: witness %S gave %S, not nil without a body"
                              where witness r))))))

(defun explain-check--values (rec clause)
  "Values CLAUSE of REC is tried on: its own example first."
  (let ((vals nil))
    (dolist (c (cons clause (append (gethash "clauses" rec) nil)))
      (let ((e (gethash "example" c)))
        (when (stringp e) (push (car (read-from-string e)) vals))))
    (when (stringp (gethash "witness" rec))
      (push (car (read-from-string (gethash "witness" rec))) vals))
    (append (nreverse vals) explain-check-pool)))

(defun explain-check--unreachable (where form rec clause)
  (let* ((i (1- (gethash "clause" clause)))
         (constant (string-prefix-p "a constant" (gethash "subject_note" rec)))
         (vals (if constant '(:own) (explain-check--values rec clause)))
         (own (gethash "example" clause))
         (bad nil))
    (when (and (not constant) (< (length vals) 40))
      (explain-check--fail "%s: only %d values" where (length vals)))
    (dolist (v vals)
      (when (equal (explain-check--probe form v) (cons 'clause i))
        (push v bad)))
    (if bad
        (explain-check--fail "%s: clause %d reported unreachable is chosen for %S"
                             where (1+ i) bad)
      (explain-check--count 'unreachable)
      (explain-check--count (cond (constant 'unreachable-constant-subject)
                                  ((stringp own) 'unreachable-own-example)
                                  (t 'unreachable-no-own-example)))
      (setq explain-check-counts
            (cons (cons 'values (+ (length vals)
                                   (or (cdr (assq 'values explain-check-counts)) 0)))
                  (assq-delete-all 'values explain-check-counts))))))

(defun explain-check--diagnostic (src rec)
  "An exhaustive-can-fail message with a witness: check it on its form."
  (let ((witness (gethash "witness" rec))
        (where (format "%s:%d:%d" src (gethash "line" rec) (gethash "column" rec))))
    (when (and (equal (gethash "code" rec) "exhaustive-can-fail") (stringp witness))
      (let ((form (explain-check--read-at src (gethash "line" rec) (gethash "column" rec))))
        (cond
         ((not (eq (car-safe form) 'pcase-exhaustive))
          (explain-check--fail "%s: no pcase-exhaustive form there" where))
         ((explain-check--unusable form)
          (explain-check--count 'skipped)
          (explain-check--say "skipped %s: Emacs cannot run it here: %s" where
                              (explain-check--unusable form)))
         (t (explain-check--witness where form (car (read-from-string witness)))))))))

(defun explain-check--record (src rec)
  (if (gethash "code" rec)
      (explain-check--diagnostic src rec)
    (explain-check--explained src rec)))

(defun explain-check--explained (src rec)
  (let* ((macro (intern (gethash "macro" rec)))
         (where (format "%s:%d:%d" src (gethash "line" rec) (gethash "column" rec)))
         ;; pcase-exhaustive's witness: checked from its message
         (witness (and (eq macro 'pcase) (gethash "witness" rec)))
         (unreachable (seq-remove (lambda (c) (eq (gethash "reachable" c) t))
                                  (gethash "clauses" rec))))
    (when (and (memq macro '(pcase pcase-exhaustive))
               (equal (gethash "kind" rec) "match")
               (or (stringp witness) unreachable))
      (let* ((form (explain-check--read-at src (gethash "line" rec) (gethash "column" rec)))
             (why (and (eq (car-safe form) macro) (explain-check--unusable form))))
        (cond
         ((not (eq (car-safe form) macro))
          (explain-check--fail "%s: no %s form there" where macro))
         (why
          (explain-check--count 'skipped)
          (explain-check--say "skipped %s: Emacs cannot run it here: %s" where why))
         (t
          (when (stringp witness)
            (explain-check--witness where form (car (read-from-string witness))))
          (dolist (c unreachable)
            (explain-check--unreachable where form rec c))))))))

(defun explain-check-main ()
  (let ((args command-line-args-left))
    (setq command-line-args-left nil)
    (while args
      (let ((src (pop args)) (jsonl (pop args)))
        (with-temp-buffer
          (insert-file-contents jsonl)
          (goto-char (point-min))
          (while (not (eobp))
            (let ((line (buffer-substring (point) (line-end-position))))
              (unless (string-empty-p line)
                (let ((rec (json-parse-string line :null-object nil
                                              :false-object :false)))
                  (explain-check--record
                   (if (equal src "-") (gethash "file" rec) src) rec))))
            (forward-line 1)))))
    (dolist (k '(witness-exhaustive witness-pcase unreachable unreachable-own-example
                 unreachable-no-own-example unreachable-constant-subject values skipped))
      (explain-check--say "explain-check: %s %d" k
                          (or (cdr (assq k explain-check-counts)) 0)))
    (explain-check--say "explain-check: %d failed" explain-check-failures)
    (kill-emacs (if (zerop explain-check-failures) 0 1))))

;;; explain-check.el ends here
