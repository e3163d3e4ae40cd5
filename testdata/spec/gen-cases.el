;;; gen-cases.el --- answer reader-cases.tsv and printer-cases.tsv with Emacs  -*- lexical-binding: t -*-

;; Run from the repository's top directory:
;;
;;   emacs -Q --batch -l testdata/spec/gen-cases.el -f pcx-spec-reader-cases \
;;         testdata/spec/reader-cases.tsv
;;   emacs -Q --batch -l testdata/spec/gen-cases.el -f pcx-spec-printer-cases \
;;         testdata/spec/printer-cases.tsv
;;
;; Each command keeps the question columns of the file and rewrites the
;; answer columns with what the running Emacs says.  To add a case, append a
;; line holding only its question (the input; or the expression, a TAB and
;; the settings) and run the command again.
;;
;; Fields use the escapes the unit tests undo: `\' is written `\\', TAB
;; `\t', LF `\n', CR `\r', other characters 0-31 and DEL as three octal
;; digits `\ooo'.  Characters that have no UTF-8 form (surrogates, code
;; points beyond U+10FFFF, raw bytes) are written as the octal escapes of
;; the bytes Emacs uses for them internally.
;;
;; reader-cases.tsv: input, result, consumed, detail, prin1_defaults.  The
;; input is read with `read-from-string' from a multibyte string.  result
;; is the object printed by `prin1-to-string' with `print-circle' and
;; `print-gensym' bound to t, or ERROR:SYMBOL; consumed is the count of
;; characters read (empty for errors); detail is `type-of', refined as
;; integer/bignum, float/nan, string/unibyte, string/multibyte (+props when
;; the string has text properties), symbol/uninterned, sub-char-table, or
;; for an error the error's data printed the same way; prin1_defaults is
;; the output of `prin1-to-string' with default settings when it differs
;; from result.
;;
;; printer-cases.tsv: expression, settings, prin1_output, read_back.  The
;; expression is evaluated (lexically) with the settings (NAME=VALUE
;; separated by spaces) bound, and printed with `prin1-to-string' under the
;; same settings.  read_back says what reading that output gives:
;; "equal" or "NOT-equal" (compared with `equal' with the value), "partial"
;; when the reading stops before the end, or "read-error SYMBOL" when
;; reading or comparing signals SYMBOL.

(require 'cl-lib)

(defun pcx-spec--escape (s)
  "S written as a TSV field."
  (mapconcat
   (lambda (c)
     (cond ((eq c ?\\) "\\\\")
           ((eq c ?\t) "\\t")
           ((eq c ?\n) "\\n")
           ((eq c ?\r) "\\r")
           ((or (< c 32) (= c 127)) (format "\\%03o" c))
           ((or (> c #x10ffff) (<= #xd800 c #xdfff))
            (mapconcat (lambda (b) (format "\\%03o" b))
                       (encode-coding-string (string c) 'utf-8-emacs) ""))
           (t (string c))))
   s ""))

(defun pcx-spec--unescape (s)
  "The text of the TSV field S."
  (replace-regexp-in-string
   "\\\\\\([0-7][0-7][0-7]\\|.\\)"
   (lambda (m)
     (let ((e (substring m 1)))
       (pcase e
         ("t" "\t") ("n" "\n") ("r" "\r")
         ((pred (string-match-p "\\`[0-7]\\{3\\}\\'"))
          (string (string-to-number e 8)))
         (_ e))))
   s t t))

(defun pcx-spec--rows (file)
  "The lines of FILE after its header, each a list of unescaped fields."
  (with-temp-buffer
    (let ((coding-system-for-read 'utf-8-unix))
      (insert-file-contents file))
    (let ((lines (split-string (buffer-string) "\n" t)))
      (cons (car lines)
            (mapcar (lambda (line)
                      (mapcar #'pcx-spec--unescape (split-string line "\t")))
                    (cdr lines))))))

(defun pcx-spec--write (file header rows)
  "Write HEADER and ROWS (lists of field texts) to FILE."
  (with-temp-buffer
    (insert header "\n")
    (dolist (row rows)
      (insert (mapconcat #'pcx-spec--escape row "\t") "\n"))
    (let ((coding-system-for-write 'utf-8-unix))
      (write-region nil nil file))))

(defun pcx-spec--prin1 (v circle)
  (let ((print-circle circle) (print-gensym circle))
    (prin1-to-string v)))

(defun pcx-spec--type (input v)
  "The refined type of V, read from INPUT."
  (cond ((string-prefix-p "#^^[" input) "sub-char-table") ; type-of may abort
        ((bignump v) "integer/bignum")
        ((and (floatp v) (isnan v)) "float/nan")
        ((stringp v)
         (concat "string/" (if (multibyte-string-p v) "multibyte" "unibyte")
                 (if (and (> (length v) 0)
                          (or (text-properties-at 0 v)
                              (next-property-change 0 v)))
                     "+props" "")))
        ((and (symbolp v) (not (eq v (intern-soft (symbol-name v)))))
         "symbol/uninterned")
        ;; a record's type-of is its slot 0, which need not be a symbol
        (t (let ((type (type-of v)))
             (if (symbolp type) (symbol-name type) "record")))))

(defun pcx-spec--reader-row (input)
  (condition-case err
      (let* ((r (read-from-string input))
             (v (car r))
             (full (pcx-spec--prin1 v t))
             (plain (pcx-spec--prin1 v nil)))
        (list input full (number-to-string (cdr r)) (pcx-spec--type input v)
              (if (equal full plain) "" plain)))
    (error (list input (format "ERROR:%s" (car err)) ""
                 (pcx-spec--prin1 (cdr err) t) ""))))

(defun pcx-spec-reader-cases ()
  "Rewrite the answers of the reader-cases file named on the command line."
  (let* ((file (pop command-line-args-left))
         (rows (pcx-spec--rows file)))
    (pcx-spec--write file (car rows)
                     (mapcar (lambda (row) (pcx-spec--reader-row (car row)))
                             (cdr rows)))
    (message "%s: %d rows, Emacs %s" file (length (cdr rows)) emacs-version)))

(defun pcx-spec--settings (text)
  "The settings column TEXT as a list of (SYMBOL . VALUE)."
  (mapcar (lambda (s)
            (let ((eq (string-search "=" s)))
              (cons (intern (substring s 0 eq))
                    (car (read-from-string s (1+ eq))))))
          (split-string text " " t)))

(defun pcx-spec--read-back (out val)
  (condition-case err
      (let ((r (read-from-string out)))
        (cond ((< (cdr r) (length out)) "partial")
              ((equal (car r) val) "equal")
              (t "NOT-equal")))
    (error (format "read-error %s" (car err)))))

(defun pcx-spec--printer-row (expr settings)
  (let* ((vars (pcx-spec--settings settings))
         (val (cl-progv (mapcar #'car vars) (mapcar #'cdr vars)
                (eval (car (read-from-string expr)) t)))
         (out (cl-progv (mapcar #'car vars) (mapcar #'cdr vars)
                (prin1-to-string val))))
    (list expr settings out (pcx-spec--read-back out val))))

(defun pcx-spec-printer-cases ()
  "Rewrite the answers of the printer-cases file named on the command line."
  (let* ((file (pop command-line-args-left))
         (rows (pcx-spec--rows file)))
    (pcx-spec--write file (car rows)
                     (mapcar (lambda (row)
                               (pcx-spec--printer-row (nth 0 row) (or (nth 1 row) "")))
                             (cdr rows)))
    (message "%s: %d rows, Emacs %s" file (length (cdr rows)) emacs-version)))

;;; gen-cases.el ends here
