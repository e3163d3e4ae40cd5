;;; run.el --- evaluate pcexpand's pcase expansions and check them  -*- lexical-binding: t -*-
;; Usage: emacs -Q --batch -l prelude.el -l run.el CASES EXPANSIONS [ORIG]
;; CASES is cases.tsv; EXPANSIONS has one line per case: ID TAB EXPANSION
;; (printed Lisp, or XERROR when pcexpand refused the form) TAB the
;; space-separated "SEVERITY:CODE" of its diagnostics.  Each expansion is
;; macroexpanded completely first (Emacs 30 may call app functions on
;; constants then; the logging helpers refuse such calls, as a file's own
;; functions are not defined while it is compiled), then the log is
;; cleared and the code evaluated with lexical binding (as `load' does),
;; and the result compared with the expected column.  With a third
;; argument `orig', the original form is also expanded and evaluated by
;; this Emacs the same way and compared (rows whose note starts with
;; "pcexpand" are skipped there: pcexpand departs from Emacs on purpose).
;; Prints one line per failure and a summary; exit status 1 on failure.

(defun pcx-run--read-tsv (file)
  "The non-comment lines of FILE as lists of columns."
  (with-temp-buffer
    (insert-file-contents file)
    (let (rows)
      (dolist (line (split-string (buffer-string) "\n"))
        (unless (or (string= line "") (string-prefix-p "#" line))
          (push (split-string line "\t") rows)))
      (nreverse rows))))

(defun pcx-run--eval (text full-error)
  "Evaluate TEXT: (RESULT . LOG).  FULL-ERROR: show the whole error."
  (let* ((code (condition-case err
                   (list 'ok (macroexpand-all (car (read-from-string text))))
                 (error (list 'err err))))
         (result (progn
                   (if (fboundp 'pcx-reset) (funcall 'pcx-reset) (setq pcx-log nil))
                   (condition-case err
                       (if (eq (car code) 'err)
                           (signal (car (cadr code)) (cdr (cadr code)))
                         (let ((pcx-running t))
                           (prin1-to-string (eval (cadr code) t))))
                     (error (if full-error
                                (format "ERROR:%S" err)
                              (format "ERROR:%s" (car err))))))))
    (cons result (prin1-to-string (reverse pcx-log)))))

(defun pcx-run--diags-ok (want diags)
  "Does every code of WANT occur among DIAGS (warnings)?"
  (let ((ok t))
    (dolist (code (split-string want " " t) ok)
      (unless (string-match-p (concat "warning:" (regexp-quote code) "\\b") diags)
        (setq ok nil)))))

(defun pcx-run--value-msg (id label text want want-log)
  "Failure message when evaluating TEXT does not give WANT, or nil."
  (let ((got (pcx-run--eval text (string-prefix-p "ERROR:(" want))))
    (cond ((not (string= (car got) want))
           (format "%s: %s value %s, expected %s\n  form: %s" id label (car got) want text))
          ((and (not (string= want-log "")) (not (string= (cdr got) want-log)))
           (format "%s: %s log %s, expected %s" id label (cdr got) want-log)))))

(defun pcx-run--check (case exp)
  "A failure message for CASE and its expansion row EXP, or nil."
  (let* ((id (nth 0 case)) (want (nth 2 case)) (want-log (or (nth 3 case) ""))
         (want-diag (or (nth 4 case) ""))
         (text (nth 1 exp)) (diags (or (nth 2 exp) "")))
    (cond
     ((null exp) (format "%s: no expansion" id))
     ((string-prefix-p "XERROR" want)
      (unless (string-match-p (concat "error:" (substring want 7) "\\b") diags)
        (format "%s: expected %s, got %s [%s]" id want text diags)))
     ((string-prefix-p "XERROR" text)
      (format "%s: expansion failed [%s]" id diags))
     ((not (pcx-run--diags-ok want-diag diags))
      (format "%s: diagnostics [%s], expected [%s]" id diags want-diag))
     ((string-match-p "\\_<pcase\\(-[-a-z*]+\\)?\\_>\\|\\_<pcase--" text)
      (format "%s: pcase vocabulary left in the expansion: %s" id text))
     (t (pcx-run--value-msg id "expansion" text want want-log)))))

(defun pcx-run--check-orig (case)
  "A failure message when Emacs disagrees with the expected column, or nil."
  (let ((id (nth 0 case)) (form (nth 1 case)) (want (nth 2 case))
        (note (or (nth 5 case) "")))
    (unless (or (string-prefix-p "XERROR" want) (string-prefix-p "pcexpand" note))
      (pcx-run--value-msg id "emacs" form want (or (nth 3 case) "")))))

(let* ((cases (pcx-run--read-tsv (nth 0 command-line-args-left)))
       (exps (pcx-run--read-tsv (nth 1 command-line-args-left)))
       (orig (equal (nth 2 command-line-args-left) "orig"))
       (passed 0) (failed 0))
  (setq command-line-args-left nil)
  (dolist (case cases)
    (let ((msg (or (pcx-run--check case (assoc (car case) exps))
                   (and orig (pcx-run--check-orig case)))))
      (if msg
          (progn (setq failed (1+ failed)) (princ (concat "FAIL " msg "\n")))
        (setq passed (1+ passed)))))
  (princ (format "pcase: %d passed, %d failed\n" passed failed))
  (kill-emacs (if (> failed 0) 1 0)))
