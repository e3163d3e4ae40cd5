;;; run.el --- evaluate pcexpand's cond* expansions and check them  -*- lexical-binding: t -*-
;; Usage: emacs -Q --batch -l prelude.el -l run.el CASES EXPANSIONS
;; CASES is cases.tsv; EXPANSIONS has one line per case: ID TAB EXPANSION
;; (printed Lisp, or XERROR:CODE when pcexpand refused the form) TAB the
;; space-separated "SEVERITY:CODE" of its diagnostics.  Emacs 30.1 has no
;; cond*, so the plain expansion is what runs; each is evaluated with
;; lexical binding after the case's log is cleared, once interpreted and
;; once byte-compiled (as the body of a lambda), and both must give the
;; expected value and log.  Prints one line per failure and a summary;
;; exits with status 1 if any case failed.

(require 'bytecomp)
(setq byte-compile-warnings nil)

(defun pcx-run--read-tsv (file)
  "The non-comment lines of FILE as lists of columns."
  (with-temp-buffer
    (insert-file-contents file)
    (let (rows)
      (dolist (line (split-string (buffer-string) "\n"))
        (unless (or (string= line "") (string-prefix-p "#" line))
          (push (split-string line "\t") rows)))
      (nreverse rows))))

(defun pcx-run--eval (text compiled)
  "Evaluate the printed expansion TEXT: (RESULT . LOG).
When COMPILED, TEXT is byte-compiled first, as the body of a lambda."
  (let* ((form (car (read-from-string text)))
         (fn (and compiled
                  (let ((inhibit-message t))
                    (byte-compile `(lambda () ,form))))))
    (setq pcx-log nil)
    (let ((result (condition-case err
                      (prin1-to-string (if fn (funcall fn) (eval form t)))
                    (error (format "ERROR:%s" (car err))))))
      (cons result (prin1-to-string (reverse pcx-log))))))

(defun pcx-run--compare (id text want want-log compiled)
  "A failure message if TEXT evaluated (COMPILED or not) misses WANT, WANT-LOG."
  (let ((got (pcx-run--eval text compiled))
        (how (if compiled " (byte-compiled)" "")))
    (cond ((not (string= (car got) want))
           (format "%s: value%s %s, expected %s\n  expansion: %s"
                   id how (car got) want text))
          ((and (not (string= want-log "")) (not (string= (cdr got) want-log)))
           (format "%s: log%s %s, expected %s" id how (cdr got) want-log)))))

(defun pcx-run--diags-ok (want diags)
  "Do the diagnostics DIAGS (a string) agree with WANT?
WANT names the warning codes the case expects (space-separated):
`emacs-divergence' must be there exactly when WANT names it; any other
code WANT names must be there; no other warning may be."
  (let* ((codes (split-string want " " t))
         (warned (string-match-p "warning:emacs-divergence" diags))
         (other (replace-regexp-in-string
                 "warning:emacs-divergence\\|error:[-a-z]+\\| " "" diags)))
    (dolist (code codes)
      (unless (equal code "emacs-divergence")
        (if (string-match-p (concat "warning:" (regexp-quote code)) other)
            (setq other (replace-regexp-in-string
                         (concat "warning:" (regexp-quote code)) "" other))
          (setq other "missing"))))
    (and (string= other "")
         (if (member "emacs-divergence" codes) warned (not warned)))))

(defun pcx-run--check (case exp)
  "A failure message for CASE and its expansion row EXP, or nil."
  (let* ((id (nth 0 case)) (want (nth 2 case)) (want-log (nth 3 case))
         (want-diag (nth 4 case))
         (text (nth 1 exp)) (diags (or (nth 2 exp) "")))
    (cond
     ((null exp) (format "%s: no expansion" id))
     ((string-prefix-p "XERROR" want)
      (unless (string-match-p (concat "error:" (substring want 7)) diags)
        (format "%s: expected %s, got %s [%s]" id want text diags)))
     ((string-prefix-p "XERROR" text)
      (format "%s: expansion failed [%s]" id diags))
     ((not (pcx-run--diags-ok want-diag diags))
      (format "%s: diagnostics [%s], expected [%s]" id diags want-diag))
     (t (or (pcx-run--compare id text want want-log nil)
            (pcx-run--compare id text want want-log t))))))

(let* ((cases (pcx-run--read-tsv (nth 0 command-line-args-left)))
       (exps (pcx-run--read-tsv (nth 1 command-line-args-left)))
       (passed 0) (failed 0))
  (setq command-line-args-left nil)
  (dolist (case cases)
    (let ((msg (pcx-run--check case (assoc (car case) exps))))
      (if msg
          (progn (setq failed (1+ failed)) (princ (concat "FAIL " msg "\n")))
        (setq passed (1+ passed)))))
  (princ (format "cond*: %d passed, %d failed\n" passed failed))
  (kill-emacs (if (> failed 0) 1 0)))
