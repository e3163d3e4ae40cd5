;;; run.el --- evaluate pcexpand's cond* expansions and check them  -*- lexical-binding: t -*-
;; Usage: emacs -Q --batch -l prelude.el -l run.el CASES EXPANSIONS
;; CASES is cases.tsv; EXPANSIONS has one line per case: ID TAB EXPANSION
;; (printed Lisp, or XERROR:CODE when pcexpand refused the form) TAB the
;; space-separated "SEVERITY:CODE" of its diagnostics.  Emacs 28.2 has no
;; cond*, so the plain expansion is what runs; each is evaluated with
;; lexical binding after the case's log is cleared.  Prints one line per
;; failure and a summary; exits with status 1 if any case failed.

(defun pcx-run--read-tsv (file)
  "The non-comment lines of FILE as lists of columns."
  (with-temp-buffer
    (insert-file-contents file)
    (let (rows)
      (dolist (line (split-string (buffer-string) "\n"))
        (unless (or (string= line "") (string-prefix-p "#" line))
          (push (split-string line "\t") rows)))
      (nreverse rows))))

(defun pcx-run--eval (text)
  "Evaluate the printed expansion TEXT: (RESULT . LOG)."
  (setq pcx-log nil)
  (let ((result (condition-case err
                    (prin1-to-string (eval (car (read-from-string text)) t))
                  (error (format "ERROR:%s" (car err))))))
    (cons result (prin1-to-string (reverse pcx-log)))))

(defun pcx-run--diags-ok (want diags)
  "Do the diagnostics DIAGS (a string) agree with WANT?"
  (let ((warned (string-match-p "warning:emacs-divergence" diags))
        (other (replace-regexp-in-string
                "warning:emacs-divergence\\|error:[-a-z]+\\| " "" diags)))
    (and (string= other "")
         (if (string= want "emacs-divergence") warned (not warned)))))

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
     (t (let ((got (pcx-run--eval text)))
          (cond ((not (string= (car got) want))
                 (format "%s: value %s, expected %s\n  expansion: %s"
                         id (car got) want text))
                ((and (not (string= want-log "")) (not (string= (cdr got) want-log)))
                 (format "%s: log %s, expected %s" id (cdr got) want-log))))))))

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
