;;; corpus-expand.el --- check pcexpand's expansion of a corpus  -*- lexical-binding: t -*-

;; Run as:
;;   emacs -Q --batch -l corpus-expand.el -f pcx-expand-check LIST SRC OUT RECORDS COMPACT
;;
;; LIST names files relative to the directories SRC (the input) and OUT
;; (what `pcexpand --out-dir OUT SRC' wrote), one per line.  RECORDS holds
;; the JSON lines of `pcexpand --format=json SRC' (one per replaced form,
;; with the input's path as given and the form's line/column span).  For
;; every file:
;;  - the output is read as Emacs reads a Lisp file, without an error;
;;  - no pcase-family, cond* or stray cond* keyword head is left in a code
;;    position of its forms (a walker that knows where code is not: quote,
;;    function, lambda lists but the INITFORMs of cl lambda lists, let
;;    bindings, condition-case handlers, backquote templates, the data
;;    clauses of declare, interactive's modes; every argument of any
;;    other form is taken as code);
;;  - outside the replaced forms the bytes are those of the input: the text
;;    between replaced spans (cut from the input with the records'
;;    positions) is found unchanged in the output, each replaced span being
;;    the record's expansion (cli.md 4.1; a re-emitted comment may turn the
;;    whitespace before a form into a line break and indentation);
;;  - every expansion is indented as Emacs indents it (cli.md 8): in the
;;    output file, in emacs-lisp-mode with indent-tabs-mode nil,
;;    `indent-region' over the expansion's lines after its first (whose
;;    column is the original form's, input text) changes nothing.  Where
;;    the input itself is not indented as this Emacs indents it (a form
;;    starting its line at another column than `indent-region' would give
;;    it), the expansion is first moved by that difference: the layout
;;    pcexpand chose relative to the input is what is checked.  The libraries that
;;    give pcexpand's built-in indent table its specs are loaded first
;;    (as testdata/indent/indent-check.el does).
;;  - the output reads to the forms of `pcexpand --compact --out-dir COMPACT
;;    SRC' (strings compared by their characters, uninterned symbols by
;;    their names): the layout, and the user's code keeping its text in
;;    it, change no value.
;; Prints details of failures on stderr, then one line on stdout:
;;   "files N sites N read-errors N heads-left N text-mismatches N
;;    indented N indent-lines N indent-problems N indent-shifted N
;;    value-mismatches N"
;; where "indented" counts the expansions that had at least one line
;; checked by `indent-region', "indent-lines" those lines and
;; "indent-shifted" the expansions first moved with the input's line.

(require 'json)
(require 'subr-x)
(dolist (lib '(cl-lib cl-extra subr-x seq map gv rx eieio ert generator
               thunk let-alist macroexp nadvice))
  (require lib))

(defconst pcx--forbidden
  '(pcase pcase-exhaustive pcase-let pcase-let* pcase-setq pcase-dolist
    pcase-lambda cond* match* bind* bind-and* pcase*)
  "Heads that must not be left in a code position.")

(defconst pcx--definers
  '(defun defmacro defsubst define-inline cl-defun cl-defmacro cl-defsubst
    cl-iter-defun iter-defun define-advice)
  "Heads of the form (HEAD NAME ARGLIST BODY...).")

;;;; Reading

(defun pcx--read-forms ()
  "Read every top-level form of the current buffer; signal on a read error."
  (goto-char (point-min))
  (let ((forms '()))
    (condition-case nil
        (while t (push (read (current-buffer)) forms))
      (end-of-file
       (skip-chars-forward " \t\n\r\f")
       (while (looking-at-p ";")
         (forward-line 1)
         (skip-chars-forward " \t\n\r\f"))
       (unless (eobp)
         (signal 'invalid-read-syntax (list "end of file inside a form")))))
    (nreverse forms)))

;;;; The code walker (an explicit stack: no recursion on the depth of a form)

(defun pcx--push-all (list mode stack)
  "Push each element of LIST (possibly dotted) onto STACK in MODE."
  (while (consp list)
    (push (cons (car list) mode) stack)
    (setq list (cdr list)))
  (when list (push (cons list mode) stack))
  stack)

(defconst pcx--cl-definers
  '(cl-defun cl-defmacro cl-defsubst cl-iter-defun)
  "Definers of `pcx--definers' whose argument list is a cl lambda list.")

(defun pcx--cl-defaults (arglist)
  "The INITFORMs of a cl lambda list ARGLIST (of its destructuring
sublists too): code, evaluated when the argument is missing."
  (let ((stack (list arglist)) (found '()))
    (while stack
      (let ((l (pop stack)) (section 'required))
        (while (consp l)
          (let ((a (car l)))
            (cond
             ((memq a '(&optional &key &aux)) (setq section a))
             ((memq a '(&rest &body &whole &environment)) (setq section 'required))
             ((not (consp a)))
             ((eq section 'required) (push a stack))
             ((consp (cdr-safe a)) (push (cadr a) found))))
          (setq l (cdr l)))))
    found))

(defun pcx--declare-code (clause)
  "The parts of a `declare' CLAUSE that are code (a function argument of
compiler-macro, gv-expander, gv-setter and completion; obsolete's WHEN;
the forms of interactive-args)."
  (let ((args (cdr-safe clause)))
    (cl-case (car-safe clause)
      ((compiler-macro gv-expander gv-setter completion)
       (let ((f (car-safe args))) (and (eq (car-safe f) 'lambda) (cddr f))))
      (obsolete (and (consp (cdr-safe args)) (list (cadr args))))
      (interactive-args (mapcar (lambda (a) (car-safe (cdr-safe a)))
                                (and (listp args) args)))
      (t nil))))

(defun pcx--code-parts (form)
  "The parts of FORM (a cons in a code position) that are code, as a list."
  (let ((head (car form)) (args (cdr-safe form)))
    (cond
     ((eq head 'quote) nil)
     ;; interactive's spec is code, its modes are not
     ((eq head 'interactive) (and (consp args) (list (car args))))
     ((eq head 'declare)
      (apply #'append (mapcar #'pcx--declare-code (and (listp args) args))))
     ((eq head 'function)
      (let ((f (car-safe args)))
        (and (eq (car-safe f) 'lambda) (cddr f))))
     ((eq head 'lambda) (cdr-safe args))
     ((memq head pcx--definers)
      (append (and (memq head pcx--cl-definers)
                   (pcx--cl-defaults (car-safe (cdr-safe args))))
              (cdr-safe (cdr-safe args))))
     ((memq head '(let let* dlet))
      (append (mapcar (lambda (b) (car-safe (cdr-safe b)))
                      (and (listp (car-safe args)) (car args)))
              (cdr-safe args)))
     ((eq head 'condition-case)
      (cons (car-safe (cdr-safe args))
            (apply #'append
                   (mapcar (lambda (h) (and (consp h) (copy-sequence (cdr h))))
                           (cdr-safe (cdr-safe args))))))
     ((eq head 'cond)
      (apply #'append (mapcar (lambda (c) (and (consp c) (copy-sequence c)))
                              args)))
     (t args))))

(defun pcx--heads-left (forms)
  "Forbidden heads found in code positions of FORMS, as a list of forms."
  (let ((stack (pcx--push-all forms 'code nil)) (found '()))
    (while stack
      (let* ((item (pop stack)) (x (car item)) (mode (cdr item)))
        (cond
         ((and (eq mode 'code) (consp x))
          (cond
           ((memq (car x) pcx--forbidden) (push x found))
           ((eq (car x) '\`)
            (push (cons (car-safe (cdr x)) 1) stack))
           (t (setq stack (pcx--push-all (pcx--code-parts x) 'code stack)))))
         ((integerp mode)             ; inside a backquote, at level MODE
          (cond
           ((and (consp x) (memq (car x) '(\, \,@)))
            (push (cons (car-safe (cdr x)) (if (= mode 1) 'code (1- mode)))
                  stack))
           ((and (consp x) (eq (car x) '\`))
            (push (cons (car-safe (cdr x)) (1+ mode)) stack))
           ((consp x) (setq stack (pcx--push-all x mode stack)))
           ((vectorp x)
            (setq stack (pcx--push-all (append x nil) mode stack))))))))
    found))

;;;; Text outside the replaced forms

(defun pcx--pos (line col)
  "Position of LINE and COL (1-based; a TAB advances to the next multiple
of 8, any other character counts 1, as pcexpand counts columns)."
  (goto-char (point-min))
  (forward-line (1- line))
  (let ((c 1))
    (while (and (< c col) (not (eolp)))
      (setq c (if (eq (char-after) ?\t) (1+ (* 8 (1+ (/ (1- c) 8)))) (1+ c)))
      (forward-char 1)))
  (point))

(defun pcx--same-p (want got)
  "Does GOT equal WANT, where U+FFFD in WANT (JSON's stand-in for a byte
that is not UTF-8) matches any character?"
  (or (string= want got)
      (and (= (length want) (length got))
           (let ((i 0) (ok t))
             (while (and ok (< i (length want)))
               (setq ok (or (eq (aref want i) (aref got i))
                            (eq (aref want i) #xFFFD))
                     i (1+ i)))
             ok))))

(defun pcx--take (out pos text)
  "If buffer OUT has TEXT at POS, the position after it, else nil."
  (let ((end (+ pos (length text))))
    (and (<= end (with-current-buffer out (point-max)))
         (pcx--same-p text (with-current-buffer out
                             (buffer-substring-no-properties pos end)))
         end)))

(defun pcx--take-broken (out pos text)
  "If OUT has a line break at POS, then spaces, then TEXT: the position
after TEXT, else nil."
  (with-current-buffer out
    (and (eq (char-after pos) ?\n)
         (let ((q (1+ pos)) (found nil))
           (while (and q (not found))
             (setq found (pcx--take out q text)
                   q (and (not found) (eq (char-after q) ?\s) (1+ q))))
           found))))

(defun pcx--take-site (out pos gap text)
  "Match GAP, the input text before a replaced form, then TEXT, the form's
expansion, in OUT at POS; the position after them, or nil.  Before an
expansion that starts with re-emitted comments, the blanks that ended GAP
may have become a line break and indentation (cli.md 4.1)."
  (let ((p (pcx--take out pos gap)))
    (or (and p (or (pcx--take out p text) (pcx--take-broken out p text)))
        (let ((q (pcx--take out pos (string-trim-right gap "[ \t]+"))))
          (and q (pcx--take-broken out q text))))))

(defvar pcx--spans nil
  "Spans (START END SOURCE-START) of the expansions in the output buffer
last checked by `pcx--check-text', in order; SOURCE-START is where the
replaced form starts in the input buffer.")

(defun pcx--check-text (file src out records)
  "Compare buffers SRC and OUT outside the spans of RECORDS; t when equal.
Sets `pcx--spans' to the expansions' spans in OUT."
  (let ((spos (with-current-buffer src (point-min)))
        (opos (with-current-buffer out (point-min)))
        (ok t))
    (setq pcx--spans nil)
    (dolist (r records)
      (when ok
        (let* ((start (with-current-buffer src
                        (pcx--pos (gethash "line" r) (gethash "column" r))))
               (end (with-current-buffer src
                      (pcx--pos (gethash "end_line" r) (gethash "end_column" r))))
               (gap (with-current-buffer src
                      (buffer-substring-no-properties spos start)))
               (orig (with-current-buffer src
                       (buffer-substring-no-properties start end))))
          (unless (pcx--same-p (gethash "original" r) orig)
            (message "MISMATCH %s:%d:%d: the record's original is not the text there"
                     file (gethash "line" r) (gethash "column" r))
            (setq ok nil))
          (setq opos (and ok (pcx--take-site out opos gap (gethash "expansion" r)))
                spos end)
          (when opos
            (push (list (- opos (length (gethash "expansion" r))) opos start)
                  pcx--spans))
          (unless opos
            (message "MISMATCH %s:%d:%d: output differs around this form"
                     file (gethash "line" r) (gethash "column" r))
            (setq ok nil)))))
    (when (and ok (not (pcx--same-p (with-current-buffer src
                                      (buffer-substring-no-properties
                                       spos (point-max)))
                                    (with-current-buffer out
                                      (buffer-substring-no-properties
                                       opos (point-max))))))
      (message "MISMATCH %s: output differs after the last form" file)
      (setq ok nil))
    (setq pcx--spans (nreverse pcx--spans))
    ok))

;;;; Indentation of the expansions

(defun pcx--line-start-p (pos)
  "Is there only blank space before POS on its line?"
  (save-excursion (goto-char pos) (skip-chars-backward " \t") (bolp)))

(defun pcx--source-shift (src pos)
  "How many columns `indent-region' would move the line of buffer SRC
where the form at POS starts, when the form starts that line, else 0."
  (with-current-buffer src
    (if (not (pcx--line-start-p pos))
        0
      (save-excursion
        (goto-char pos)
        (beginning-of-line)
        (let ((want (calculate-lisp-indent)))
          (if (consp want) (setq want (car want)))
          (if (integerp want)
              (- want (progn (goto-char pos) (current-column)))
            0))))))

(defun pcx--shift-lines (from to shift)
  "Move the lines from FROM to TO by SHIFT columns, except comment lines
that start with a single `;' (`indent-region' puts those at
`comment-column' wherever the code is)."
  (save-excursion
    (goto-char from)
    (while (< (point) to)
      (unless (looking-at-p "[ \t]*;\\([^;]\\|$\\)")
        (indent-rigidly (point) (line-end-position) shift))
      (forward-line 1))))

(defun pcx--indent-span (file span shift counts)
  "Run `indent-region' over the expansion SPAN (START END _) of the current
buffer, after its first line; count it in COUNTS (slots 3, 4, 5, 6:
expansions, lines, problems, shifted).  SHIFT is how far `indent-region'
moves the replaced form's own line in the input: when the expansion
starts its line, it is first moved by SHIFT (its first line and column
are the input's, cli.md 4.1; what is checked is the layout pcexpand chose
relative to them).  Any change is undone, so that later spans keep their
positions."
  (let* ((start (nth 0 span)) (end (copy-marker (nth 1 span)))
         (from (save-excursion (goto-char start) (forward-line 1) (point)))
         (shifted (and (/= shift 0) (pcx--line-start-p start)))
         (whole-from (save-excursion (goto-char start) (line-beginning-position)))
         (whole-to (copy-marker (save-excursion (goto-char end) (line-end-position))))
         (saved (buffer-substring-no-properties whole-from whole-to)))
    (when (< from end)
      (when shifted
        (aset counts 6 (1+ (aref counts 6)))
        (pcx--shift-lines whole-from whole-to shift)
        (setq from (save-excursion (goto-char whole-from) (forward-line 1) (point))))
      (let* ((to (copy-marker (save-excursion (goto-char end) (line-end-position))))
             (before (buffer-substring-no-properties from to)))
        (let ((inhibit-message t)) (indent-region from to))
        (let ((after (buffer-substring-no-properties from to)))
          (aset counts 3 (1+ (aref counts 3)))
          (aset counts 4 (+ (aref counts 4) (length (split-string before "\n"))))
          (unless (equal before after)
            (pcx--indent-report file (line-number-at-pos from) before after counts)))
        (set-marker to nil))
      (unless (equal saved (buffer-substring-no-properties whole-from whole-to))
        (delete-region whole-from whole-to)
        (goto-char whole-from)
        (insert saved)))
    (set-marker end nil)
    (set-marker whole-to nil)))

(defun pcx--indent-report (file line before after counts)
  "Report the lines of BEFORE (starting at LINE of FILE) that `indent-region'
changed into AFTER; add their number to slot 5 of COUNTS."
  (let ((bl (split-string before "\n")) (al (split-string after "\n")))
    (while (or bl al)
      (unless (equal (car bl) (car al))
        (aset counts 5 (1+ (aref counts 5)))
        (message "INDENT %s:%d:\n  printed: %S\n  emacs:   %S"
                 file line (car bl) (car al)))
      (setq bl (cdr bl) al (cdr al) line (1+ line)))))

(defun pcx--check-indent (file src out counts)
  "Check the indentation of every span of `pcx--spans' in buffer OUT, the
expansion of buffer SRC."
  (dolist (b (list src out))
    (with-current-buffer b
      (delay-mode-hooks (emacs-lisp-mode))
      (setq indent-tabs-mode nil)))
  (dolist (span pcx--spans)
    (let ((shift (pcx--source-shift src (nth 2 span))))
      (with-current-buffer out
        (pcx--indent-span file span shift counts)))))

;;;; Driver

(defun pcx--records (file src-dir)
  "Hash table: path relative to SRC-DIR -> its records, in order."
  (let ((table (make-hash-table :test #'equal))
        (prefix (file-name-as-directory src-dir)))
    (with-temp-buffer
      (let ((coding-system-for-read 'utf-8-unix))
        (insert-file-contents file))
      (goto-char (point-min))
      (while (not (eobp))
        (let* ((r (json-parse-string (buffer-substring-no-properties
                                      (point) (line-end-position))))
               (name (gethash "file" r)))
          (when (string-prefix-p prefix name)
            (setq name (substring name (length prefix))))
          (puthash name (cons r (gethash name table)) table))
        (forward-line 1)))
    (maphash (lambda (k v) (puthash k (nreverse v) table)) table)
    table))

(defun pcx--literal (file)
  "A buffer holding FILE decoded as pcexpand decodes it."
  (let ((b (generate-new-buffer " text")))
    (with-current-buffer b
      (let ((coding-system-for-read 'utf-8-emacs-unix))
        (insert-file-contents file)))
    b))

(defun pcx--file-forms (file)
  "The forms of FILE, decoded as pcexpand decodes it."
  (with-temp-buffer
    (let ((coding-system-for-read 'utf-8-emacs-unix))
      (insert-file-contents file))
    (pcx--read-forms)))

(defun pcx--same-form (a b)
  "Are the forms A and B the same value (strings compared by their
characters, uninterned symbols by their names)?  No recursion."
  (let ((stack (list (cons a b))) (ok t))
    (while (and ok stack)
      (let* ((p (pop stack)) (x (car p)) (y (cdr p)))
        (cond
         ((and (consp x) (consp y))
          (push (cons (cdr x) (cdr y)) stack)
          (push (cons (car x) (car y)) stack))
         ((and (stringp x) (stringp y))
          (setq ok (equal (string-to-multibyte x) (string-to-multibyte y))))
         ((and (vectorp x) (vectorp y) (= (length x) (length y)))
          (dotimes (i (length x)) (push (cons (aref x i) (aref y i)) stack)))
         ((and (symbolp x) (symbolp y) (not (intern-soft x)) (not (intern-soft y)))
          (setq ok (string= (symbol-name x) (symbol-name y))))
         (t (setq ok (equal x y))))))
    ok))

(defun pcx--check-values (rel out-file compact-file counts)
  "Count in slot 7 of COUNTS whether OUT-FILE's forms differ from
COMPACT-FILE's."
  (condition-case err
      (let ((a (pcx--file-forms out-file)) (b (pcx--file-forms compact-file)))
        (unless (and (= (length a) (length b)) (cl-every #'pcx--same-form a b))
          (aset counts 7 (1+ (aref counts 7)))
          (message "VALUE %s: form %d differs in the --compact output" rel
                   (or (cl-position-if-not #'identity (cl-mapcar #'pcx--same-form a b))
                       (min (length a) (length b))))))
    (error (aset counts 7 (1+ (aref counts 7)))
           (message "VALUE %s: %S" rel err))))

(defun pcx--check-file (rel src-dir out-dir records counts &optional compact-dir)
  "Check one file; COUNTS is a vector of the counters (see `pcx-expand-check')."
  (let ((out-file (expand-file-name rel out-dir)))
    (when compact-dir
      (pcx--check-values rel out-file (expand-file-name rel compact-dir) counts))
    (condition-case err
        (let ((forms (with-temp-buffer
                       (insert-file-contents out-file)
                       (pcx--read-forms))))
          (dolist (h (pcx--heads-left forms))
            (aset counts 1 (1+ (aref counts 1)))
            (message "HEAD-LEFT %s: %S" rel
                     (let ((print-length 4) (print-level 3)) (prin1-to-string h)))))
      (error (aset counts 0 (1+ (aref counts 0)))
             (message "READ-ERROR %s: %S" rel err)))
    (let ((src (pcx--literal (expand-file-name rel src-dir)))
          (out (pcx--literal out-file)))
      (if (pcx--check-text rel src out records)
          (pcx--check-indent rel src out counts)
        (aset counts 2 (1+ (aref counts 2))))
      (kill-buffer src)
      (kill-buffer out))))

(defun pcx-expand-check ()
  "Check the files listed in the first argument (see the commentary)."
  (let* ((list (pop command-line-args-left))
         (src-dir (pop command-line-args-left))
         (out-dir (pop command-line-args-left))
         (table (pcx--records (pop command-line-args-left) src-dir))
         (compact-dir (pop command-line-args-left))
         ;; read-errors heads-left text-mismatches indented indent-lines
         ;; indent-problems indent-shifted value-mismatches
         (counts (make-vector 8 0))
         (files 0) (sites 0))
    (with-temp-buffer
      (insert-file-contents list)
      (dolist (rel (split-string (buffer-string) "\n" t))
        (let ((records (gethash rel table)))
          (setq files (1+ files) sites (+ sites (length records)))
          (pcx--check-file rel src-dir out-dir records counts compact-dir))))
    (princ (format (concat "files %d sites %d read-errors %d heads-left %d"
                           " text-mismatches %d indented %d indent-lines %d"
                           " indent-problems %d indent-shifted %d value-mismatches %d\n")
                   files sites (aref counts 0) (aref counts 1) (aref counts 2)
                   (aref counts 3) (aref counts 4) (aref counts 5)
                   (aref counts 6) (aref counts 7)))))

;;; corpus-expand.el ends here
