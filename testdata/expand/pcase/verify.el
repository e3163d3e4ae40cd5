;;; verify.el --- run the pcase goldens in Emacs: input versus expansion  -*- lexical-binding: t -*-
;; Usage: emacs -Q --batch -l verify.el [-- CASE...]   (from this directory)
;;
;; For every case of manifest.yaml (or the CASEs named):
;; * expect ok / warning: the top-level forms of input.el (expanded by this
;;   Emacs's own pcase) and of expected.el (pcexpand's golden output) are
;;   evaluated side by side, with lexical binding, and must give the same
;;   values or errors and the same call logs (the logging functions of
;;   verify-prelude.el).  Definitions are evaluated once; every other form
;;   is evaluated once per combination of the case's variable values; then
;;   the case's calls are made.  The clauses Emacs reports as shadowed and
;;   the `t' patterns it reports as deprecated must be the ones the golden's
;;   unreachable-clause and deprecated-t warnings name (per form).
;; * expect error: a form has an error in expected.err exactly when Emacs's
;;   `macroexpand-all' refuses it.
;;
;; A case may have a check.el, a list of directives (all optional):
;;   (prelude FORM...)       evaluated once before each side
;;   (vars (VAR VALUE...)...) values for the free variables of the forms;
;;                           the symbol `std' stands for `pcx-verify-values';
;;                           default ((x std))
;;   (produces VALUE...)     what the argument-less helpers (`next-token',
;;                           `get-value'...) return in turn; default std
;;   (calls EXPR...)         evaluated after all forms, results compared
;;   (each FUN VALUE...)     calls (FUN 'VALUE) for each VALUE (`std' too)
;; Prints one line per case (with the number of evaluations compared) and
;; the mismatches; exit status 1 on failure.  `-- --show CASE...' prints
;; every result of the named cases too.

(defconst pcx-verify--prelude
  (expand-file-name "verify-prelude.el"
                    (file-name-directory (or load-file-name buffer-file-name)))
  "The helpers, loaded again before each side.")
(load pcx-verify--prelude nil t)

(defvar pcx-verify-values
  '(nil t 0 1 2 3 -1 1.5 a b c x :k "s" "abc" "v12" (1) (1 2) (1 2 3) (a) (a b)
        (a 1) (a . 1) (1 . 2) ((1 2)) (add 1 2) (neg 4) [] [1] [1 2] [a 1 2]
        ((a . 1) (b . 2)))
  "The standard values given to the free variables of the forms.")

(defvar pcx-verify--evaluations 0 "Evaluations compared so far.")
(defvar pcx-verify--show nil "Non-nil: print every result (--show).")

(defconst pcx-verify--definers
  '(defun defmacro defalias defvar defconst defsubst cl-defun cl-defstruct
    defclass cl-defmethod cl-defgeneric pcase-defmacro require eval-and-compile
    eval-when-compile)
  "Heads of top-level forms evaluated once.")

;;;; reading

(defun pcx-verify--forms (file)
  "The top-level forms of FILE as a list of (FORM FIRST-LINE LAST-LINE)."
  (with-temp-buffer
    (insert-file-contents file)
    (goto-char (point-min))
    (let (forms)
      (while (progn (forward-comment (buffer-size)) (not (eobp)))
        (let* ((first (line-number-at-pos))
               (form (read (current-buffer))))
          (push (list form first (line-number-at-pos)) forms)))
      (nreverse forms))))

(defun pcx-verify--diags (file)
  "The diagnostics of FILE (expected.err) as (LINE SEVERITY CODE) lists."
  (when (file-exists-p file)
    (with-temp-buffer
      (insert-file-contents file)
      (let (diags)
        (while (re-search-forward
                "^input\\.el:\\([0-9]+\\):[0-9]+: \\([a-z]+\\): .*\\[\\([-a-z]+\\)\\]$"
                nil t)
          (push (list (string-to-number (match-string 1)) (intern (match-string 2))
                      (match-string 3))
                diags))
        (nreverse diags)))))

(defun pcx-verify--count (diags form severity &optional code)
  "How many of DIAGS with SEVERITY (and CODE) lie within FORM's lines."
  (let ((n 0))
    (dolist (d diags n)
      (when (and (<= (nth 1 form) (car d) (nth 2 form))
                 (eq (nth 1 d) severity) (or (null code) (equal (nth 2 d) code)))
        (setq n (1+ n))))))

(defun pcx-verify--check (dir)
  "The directives of DIR/check.el."
  (let ((file (expand-file-name "check.el" dir)))
    (when (file-exists-p file)
      (with-temp-buffer
        (insert-file-contents file)
        (let (items)
          (condition-case nil
              (while t (push (read (current-buffer)) items))
            (end-of-file nil))
          (nreverse items))))))

(defun pcx-verify--directive (check name)
  "The arguments of directive NAME in CHECK (all of them, appended)."
  (apply #'append (mapcar #'cdr (seq-filter (lambda (d) (eq (car d) name)) check))))

(defun pcx-verify--std (values)
  "VALUES with the symbol `std' replaced by the standard values."
  (apply #'append (mapcar (lambda (v) (if (eq v 'std) pcx-verify-values (list v)))
                          values)))

(defun pcx-verify--envs (check)
  "Every combination of the variable values of CHECK, as `let' bindings."
  (let ((envs '(nil)))
    (dolist (var (or (pcx-verify--directive check 'vars) '((x std))))
      (setq envs
            (apply #'append
                   (mapcar (lambda (env)
                             (mapcar (lambda (v) (append env `((,(car var) ',v))))
                                     (pcx-verify--std (cdr var))))
                           envs))))
    envs))

;;;; evaluating

(defun pcx-verify--eval (form)
  "Evaluate FORM with an empty log: ((ok VALUE) or (error ERR), then the log)."
  (setq pcx-log nil)
  (let ((r (condition-case err (list 'ok (eval form t))
             (error (list 'error err)))))
    (list r (reverse pcx-log))))

(defun pcx-verify--calls (check)
  "The calls of CHECK, with `each' written out."
  (append (pcx-verify--directive check 'calls)
          (apply #'append
                 (mapcar (lambda (d)
                           (mapcar (lambda (v) `(,(nth 1 d) ',v))
                                   (pcx-verify--std (cddr d))))
                         (seq-filter (lambda (d) (eq (car d) 'each)) check)))))

(defun pcx-verify--side (forms check)
  "Evaluate FORMS under CHECK: a list of (LABEL RESULT)."
  (let ((envs (pcx-verify--envs check)) (out nil) (i 0))
    (load pcx-verify--prelude nil t)
    (pcx-verify-reset)
    (setq pcx-verify-produced (or (pcx-verify--std (pcx-verify--directive check 'produces))
                                  pcx-verify-values))
    (mapc (lambda (f) (eval f t)) (pcx-verify--directive check 'prelude))
    (dolist (form forms)
      (if (and (consp form) (memq (car form) pcx-verify--definers))
          (push (list (format "form %d" i) (pcx-verify--eval form)) out)
        (dolist (env envs)
          (push (list (format "form %d %S" i env) (pcx-verify--eval `(let ,env ,form)))
                out)))
      (setq i (1+ i)))
    (dolist (c (pcx-verify--calls check))
      (push (list (format "%S" c) (pcx-verify--eval c)) out))
    (nreverse out)))

;;;; Emacs's warnings and errors

(defvar pcx-verify--warnings nil "Warnings Emacs gave while expanding.")

(defun pcx-verify--note-warning (msg &rest _)
  (push msg pcx-verify--warnings))

(dolist (f '(macroexp--warn-and-return macroexp-warn-and-return))
  (when (fboundp f)
    (advice-add f :before #'pcx-verify--note-warning)))

(defun pcx-verify--expand (form)
  "Macroexpand a fresh copy of FORM: (ERROR-MESSAGE-or-nil . WARNINGS)."
  (setq pcx-verify--warnings nil)
  (let ((err (condition-case e
                 (progn (macroexpand-all (car (read-from-string (prin1-to-string form))))
                        nil)
               (error (error-message-string e)))))
    (cons err pcx-verify--warnings)))

(defun pcx-verify--count-warnings (warnings regexp)
  (length (seq-filter (lambda (w) (string-match-p regexp w)) warnings)))

;;;; cases

(defun pcx-verify--warnings-msgs (id forms diags)
  "Mismatches between Emacs's warnings on FORMS and the golden's DIAGS."
  (let (msgs)
    (dolist (form forms)
      (let* ((w (cdr (pcx-verify--expand (car form))))
             (pairs `(("shadowed by previous" "unreachable-clause")
                      ("Pattern t is deprecated" "deprecated-t-pattern"))))
        (dolist (p pairs)
          (let ((emacs (pcx-verify--count-warnings w (car p)))
                (ours (pcx-verify--count diags form 'warning (cadr p))))
            ;; pcexpand finds every clause Emacs finds shadowed, and
            ;; more: its search is complete over what the decision DAG
            ;; knows (the `explain' suite checks each such clause in
            ;; Emacs on values built to match it).
            (unless (if (equal (cadr p) "unreachable-clause")
                        (<= emacs ours)
                      (= emacs ours))
              (push (format "%s: form at line %d: Emacs warns %d times \"%s\", golden has %d %s"
                            id (nth 1 form) emacs (car p) ours (cadr p))
                    msgs))))))
    (nreverse msgs)))

(defun pcx-verify--ok-case (id dir)
  "Mismatches of case ID (expect ok or warning) as a list of strings."
  (let* ((in (pcx-verify--forms (expand-file-name "input.el" dir)))
         (out (pcx-verify--forms (expand-file-name "expected.el" dir)))
         (check (pcx-verify--check dir))
         (diags (pcx-verify--diags (expand-file-name "expected.err" dir))))
    (if (/= (length in) (length out))
        (list (format "%s: %d forms in input.el, %d in expected.el"
                      id (length in) (length out)))
      (let ((a (pcx-verify--side (mapcar #'car in) check))
            (b (pcx-verify--side (mapcar #'car out) check))
            (msgs (pcx-verify--warnings-msgs id in diags)))
        (setq pcx-verify--evaluations (+ pcx-verify--evaluations (length a)))
        (when pcx-verify--show
          (dolist (x a) (princ (format "    %s => %S\n" (car x) (cadr x)))))
        (cl-loop for x in a for y in b
                 unless (equal (cadr x) (cadr y))
                 do (push (format "%s: %s:\n  emacs    %S\n  pcexpand %S"
                                  id (car x) (cadr x) (cadr y))
                          msgs))
        (nreverse msgs)))))

(defun pcx-verify--error-case (id dir)
  "Mismatches of case ID (expect error) as a list of strings."
  (let* ((in (pcx-verify--forms (expand-file-name "input.el" dir)))
         (check (pcx-verify--check dir))
         (diags (pcx-verify--diags (expand-file-name "expected.err" dir)))
         (i 0) (msgs nil))
    (mapc (lambda (f) (eval f t)) (pcx-verify--directive check 'prelude))
    (dolist (form in)
      (let ((emacs (car (pcx-verify--expand (car form))))
            (ours (> (pcx-verify--count diags form 'error) 0)))
        (setq pcx-verify--evaluations (1+ pcx-verify--evaluations))
        (unless (eq (and emacs t) ours)
          (push (format "%s: form %d (line %d): Emacs %s, golden %s" id i (nth 1 form)
                        (or emacs "accepts it") (if ours "has an error" "has none"))
                msgs)))
      (setq i (1+ i)))
    (nreverse msgs)))

(defun pcx-verify--manifest ()
  "The (ID EXPECT) pairs of manifest.yaml."
  (with-temp-buffer
    (insert-file-contents "manifest.yaml")
    (let (cases id)
      (while (re-search-forward "^ *\\(?:- id: *\\(\\S-+\\)\\|expect: *\\(\\S-+\\)\\)" nil t)
        (if (match-string 1)
            (setq id (match-string 1))
          (push (list id (match-string 2)) cases)))
      (nreverse cases))))

(defun pcx-verify--separately (cases)
  "Run each of CASES in an Emacs of its own (libraries one case loads, such
as byte-opt through seq, must not change how Emacs expands the next).
Prints their reports; returns the number of failed cases."
  (let ((failed 0) (emacs (expand-file-name invocation-name invocation-directory)))
    (dolist (c cases failed)
      (with-temp-buffer
        (let ((status (call-process emacs nil (list t nil) nil "-Q" "--batch"
                                    "-l" load-file-name "--" "--one" (car c))))
          (goto-char (point-min))
          (when (re-search-forward "^pcase goldens: .* \\([0-9]+\\) evaluations" nil t)
            (setq pcx-verify--evaluations (+ pcx-verify--evaluations
                                             (string-to-number (match-string 1))))
            (delete-region (line-beginning-position) (point-max)))
          (princ (buffer-string))
          (unless (eql status 0) (setq failed (1+ failed))))))))

(let* ((args (cdr (member "--" command-line-args-left)))
       (one (and (member (car args) '("--one" "--show")) t))
       (wanted (if one (cdr args) args))
       (cases (seq-filter (lambda (c) (or (null wanted) (member (car c) wanted)))
                          (pcx-verify--manifest)))
       (pcx-verify--failed 0))
  (setq command-line-args-left nil)
  (setq pcx-verify--show (equal (car args) "--show"))
  (if (not one)
      (setq pcx-verify--failed (pcx-verify--separately cases))
   (dolist (c cases)
    (let* ((id (car c))
           (before pcx-verify--evaluations)
           (msgs (condition-case err
                     (if (equal (cadr c) "error")
                         (pcx-verify--error-case id id)
                       (pcx-verify--ok-case id id))
                   (error (list (format "%s: %S" id err))))))
      (princ (format "%-28s %s (%d)\n" id (if msgs "FAIL" "ok")
                     (- pcx-verify--evaluations before)))
      (dolist (m (seq-take msgs 6)) (princ (concat "  " m "\n")))
      (when (> (length msgs) 6)
        (princ (format "  ... and %d more\n" (- (length msgs) 6))))
      (when msgs (setq pcx-verify--failed (1+ pcx-verify--failed))))))
  (princ (format "pcase goldens: %d cases, %d failed, %d evaluations compared\n"
                 (length cases) pcx-verify--failed pcx-verify--evaluations))
  (kill-emacs (if (> pcx-verify--failed 0) 1 0)))
