;;; corpus-check.el --- compare pcexpand --compact output with Emacs's reader  -*- lexical-binding: t -*-

;; Run as: emacs -Q --batch -l corpus-check.el -f pcx-corpus-check LIST COMPACT
;;
;; LIST names source files, one per line; COMPACT holds what
;; `pcexpand --no-expand --compact' printed for them, in the same order:
;; one line per top-level form.  Each file is read the way Emacs reads a
;; Lisp file (insert-file-contents honours its coding cookie, then `read'
;; until the end); its forms must be `equal' to the next lines of COMPACT,
;; each line holding exactly one form.  Each line must also be the text
;; Emacs's own `prin1-to-string' gives the form, with
;; `print-escape-newlines' (and `print-circle' when the line has labels,
;; as pcexpand prints data that is not a tree).  Prints details of
;; mismatches on stderr, then one line "files N forms N mismatches N
;; text-differences N" on stdout.
;;
;; For the benchmark: emacs -Q --batch -l corpus-check.el -f pcx-corpus-read LIST
;; reads every file named in LIST and prints "files N forms N seconds S",
;; S being the time spent decoding and reading.

(defun pcx--rest-is-blank-p ()
  "Non-nil if only whitespace and comments follow point, as the reader sees them."
  (let ((blank t))
    (while (and blank (not (eobp)))
      (skip-chars-forward "\0- \u00a0")
      (cond ((eobp))
            ((eq (char-after) ?\;) (forward-line 1))
            (t (setq blank nil))))
    blank))

(defun pcx--read-file-forms (file)
  "All top-level forms of FILE, read as Emacs reads a Lisp source file."
  (with-temp-buffer
    (insert-file-contents file)
    (goto-char (point-min))
    (let ((forms '()) (done nil))
      (while (not done)
        (let ((start (point)))
          (condition-case nil
              (push (read (current-buffer)) forms)
            (end-of-file
             (goto-char start)
             (unless (pcx--rest-is-blank-p)
               (error "%s: end of file inside a form" file))
             (setq done t)))))
      (nreverse forms))))

(defun pcx--shorten (form)
  (let ((s (let ((print-escape-newlines t)) (prin1-to-string form))))
    (if (> (length s) 160) (concat (substring s 0 160) "...") s)))

(defun pcx--next-line-form (compact)
  "Read the form on the line at point in buffer COMPACT and go to the next line.
Return (FORM . LINE), LINE the text of the line.  Signal an error when
the line is empty or holds more than one form."
  (with-current-buffer compact
    (when (eobp) (error "no more lines"))
    (let* ((eol (line-end-position))
           (line (buffer-substring-no-properties (point) eol))
           (form (read compact)))
      (when (> (point) eol) (error "the form spans several lines"))
      (skip-chars-forward "\0- " eol)
      (unless (= (point) eol) (error "text after the form on its line"))
      (forward-line 1)
      (cons form line))))

(defun pcx--emacs-prints-p (form line)
  "Non-nil if LINE is how Emacs prints FORM on one line."
  (let ((print-escape-newlines t))
    (or (string= line (prin1-to-string form))
        (let ((print-circle t)) (string= line (prin1-to-string form))))))

(defun pcx--compare-file (file compact)
  "Compare the forms of FILE with the next lines of buffer COMPACT.
Return (FORMS MISMATCHES TEXT-DIFFERENCES)."
  (let ((want (pcx--read-file-forms file)) (i 0) (bad 0) (text 0))
    (dolist (form want)
      (let* ((r (condition-case err (pcx--next-line-form compact)
                  (error (cons (list 'pcx--unreadable err) ""))))
             (got (car r)))
        (cond ((not (equal form got))
               (setq bad (1+ bad))
               (when (<= bad 3)
                 (message "MISMATCH %s form %d:\n  emacs:    %s\n  pcexpand: %s"
                          file i (pcx--shorten form) (pcx--shorten got))))
              ((not (pcx--emacs-prints-p form (cdr r)))
               (setq text (1+ text))
               (when (<= text 3)
                 (message "TEXT %s form %d:\n  emacs:    %s\n  pcexpand: %s"
                          file i (pcx--shorten form) (cdr r)))))
        (setq i (1+ i))))
    (list (length want) bad text)))

(defun pcx-corpus-check ()
  "Compare the files listed in the first argument with the compact output in the second."
  (let* ((list (pop command-line-args-left))
         (compact (generate-new-buffer " compact"))
         (files 0) (forms 0) (mismatches 0) (text 0))
    (with-current-buffer compact
      (let ((coding-system-for-read 'utf-8-emacs-unix))
        (insert-file-contents (pop command-line-args-left)))
      (goto-char (point-min)))
    (with-temp-buffer
      (insert-file-contents list)
      (dolist (file (split-string (buffer-string) "\n" t))
        (let ((r (pcx--compare-file file compact)))
          (setq files (1+ files)
                forms (+ forms (nth 0 r))
                mismatches (+ mismatches (nth 1 r))
                text (+ text (nth 2 r))))))
    (with-current-buffer compact
      (unless (eobp)
        (message "MISMATCH: %d lines of compact output left over"
                 (count-lines (point) (point-max)))
        (setq mismatches (1+ mismatches))))
    (princ (format "files %d forms %d mismatches %d text-differences %d\n"
                   files forms mismatches text))))

(defun pcx-corpus-read ()
  "Read every file listed in the file named by the first command-line argument."
  (let ((files 0) (forms 0) (start (float-time)))
    (with-temp-buffer
      (insert-file-contents (pop command-line-args-left))
      (dolist (file (split-string (buffer-string) "\n" t))
        (setq files (1+ files)
              forms (+ forms (length (pcx--read-file-forms file))))))
    (princ (format "files %d forms %d seconds %.3f\n"
                   files forms (- (float-time) start)))))

;;; corpus-check.el ends here
