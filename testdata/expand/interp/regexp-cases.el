;;; regexp-cases.el --- regexp-cases.tsv, made and checked by Emacs  -*- lexical-binding: t -*-

;; Usage (from this directory):
;;   emacs -Q --batch -l regexp-cases.el -f regexp-cases-write   (regenerate)
;;   emacs -Q --batch -l regexp-cases.el -f regexp-cases-check   (suite conformance)
;; regexp-forms.txt holds forms of the evaluator's regexp functions;
;; regexp-cases.tsv holds each, TAB, what Emacs gives for it: the value
;; (prin1, on one line) or ERROR:(ERROR-SYMBOL . DATA).  `write' makes the
;; file with this Emacs (30.1, the reference); `check' evaluates every
;; form again and fails on any difference, so that the column the
;; evaluator is tested against (core/tests/test_interp.c) is Emacs's.

(defun regexp-cases--result (form)
  "What Emacs gives for FORM, as regexp-cases.tsv writes it."
  (let ((print-escape-newlines t)
        (print-escape-control-characters t))
    (condition-case err
        (prin1-to-string (with-temp-buffer (eval form t)))
      (error (concat "ERROR:" (prin1-to-string err))))))

(defun regexp-cases--forms ()
  "The forms of regexp-forms.txt, in order."
  (let ((forms nil))
    (with-temp-buffer
      (insert-file-contents "regexp-forms.txt")
      (goto-char (point-min))
      (while (progn (forward-comment (buffer-size)) (not (eobp)))
        (push (read (current-buffer)) forms)))
    (nreverse forms)))

(defun regexp-cases--form-text (form)
  (let ((print-escape-newlines t)
        (print-escape-control-characters t))
    (prin1-to-string form)))

(defun regexp-cases-write ()
  "Write regexp-cases.tsv from regexp-forms.txt."
  (with-temp-file "regexp-cases.tsv"
    (insert (format "# form\tvalue in Emacs %s (regexp-cases.el writes and checks this file)\n"
                    emacs-version))
    (dolist (form (regexp-cases--forms))
      (insert (regexp-cases--form-text form) "\t" (regexp-cases--result form) "\n"))))

(defun regexp-cases-check ()
  "Check every row of regexp-cases.tsv against this Emacs; exit 1 on a
difference or when the file is not regexp-forms.txt's."
  (let ((rows 0) (bad 0))
    (with-temp-buffer
      (insert-file-contents "regexp-cases.tsv")
      (forward-line 1)
      (while (not (eobp))
        (let* ((line (buffer-substring-no-properties (point) (line-end-position)))
               (tab (string-search "\t" line))
               (form (car (read-from-string (substring line 0 tab))))
               (want (substring line (1+ tab)))
               (got (regexp-cases--result form)))
          (setq rows (1+ rows))
          (unless (equal want got)
            (setq bad (1+ bad))
            (message "DIFF %s\n  file:  %s\n  emacs: %s" (substring line 0 tab) want got)))
        (forward-line 1)))
    (unless (= rows (length (regexp-cases--forms)))
      (message "regexp-cases.tsv has %d rows, regexp-forms.txt %d forms: regenerate it"
               rows (length (regexp-cases--forms)))
      (setq bad (1+ bad)))
    (message "regexp-cases: %d rows, %d differences" rows bad)
    (kill-emacs (if (= bad 0) 0 1))))

;;; regexp-cases.el ends here
