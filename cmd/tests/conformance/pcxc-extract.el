;;; pcxc-extract.el --- collect pcase-family forms from Emacs's Lisp sources  -*- lexical-binding: t -*-

;; Run as:
;;   emacs -Q --batch -l pcxc-extract.el -f pcxc-extract-main OUT.tsv CORPUS-DIR
;;
;; Finds every outermost pcase-family form (pcase, pcase-exhaustive,
;; pcase-let, pcase-let*, pcase-dolist, pcase-setq, pcase-lambda) that sits in
;; a code position of a file CORPUS-DIR/**/*.el.gz, and writes one case line
;; per form in the format of testdata/conformance/README.md:
;;   FILE:LINE:COL <TAB> lex|dyn,pool[,require=FEATURE] <TAB> FORM <TAB> = <TAB> HEAD
;;     [<TAB> DEFINITIONS]
;; FEATURE is what the file provides: loading it gives Emacs the struct
;; definitions and pattern macros some forms need to expand.  DEFINITIONS
;; are the file's earlier `cl-defstruct' and `pcase-defmacro' forms that
;; FORM uses, which an expander reading the whole file would have seen.
;; Code positions are decided by Emacs itself: each top-level form that
;; mentions "pcase" is macro-expanded with `macroexpand-all' under an
;; environment in which the seven heads record their form and expand to
;; nil, so only the forms Emacs would evaluate are seen, and forms nested in
;; a recorded one are not visited.  The recorded form is then located in
;; the text to get its line.  Macros defined earlier in the same file,
;; top-level `require's and `eval-and-compile'/`eval-when-compile' forms
;; are evaluated first, as the byte compiler would.
;;
;; The output is derived from the installed sources at test time and is
;; never stored in the repository.

(require 'cl-lib)
(require 'subr-x)

(defconst pcxc-extract-heads
  '(pcase pcase-exhaustive pcase-let pcase-let* pcase-dolist pcase-setq
          pcase-lambda)
  "Heads of the forms collected.")

(defconst pcxc-extract-head-regexp
  "(\\(pcase\\(?:-exhaustive\\|-let\\*?\\|-dolist\\|-setq\\|-lambda\\)?\\)\\_>"
  "Finds the text of a collected head right after an open parenthesis.")

(defvar pcxc-extract--found nil
  "Forms recorded while expanding the current top-level form, newest first.")

(defvar pcxc-extract--stats nil
  "Alist of counters reported at the end.")

(defun pcxc-extract--count (key &optional n)
  "Add N (default 1) to the counter KEY."
  (let ((cell (assq key pcxc-extract--stats)))
    (if cell
        (setcdr cell (+ (cdr cell) (or n 1)))
      (push (cons key (or n 1)) pcxc-extract--stats))))

(defun pcxc-extract--same-form-p (a b)
  "Non-nil if recorded forms A and B come from the same source form.
Their argument lists are fresh, but each argument is the source object."
  (and (eq (car a) (car b))
       (= (length a) (length b))
       (cl-every #'eq (cdr a) (cdr b))))

(defun pcxc-extract--recorder (head)
  "A macro function that records a HEAD form and expands to nil."
  (lambda (&rest args)
    (let ((form (cons head args)))
      (unless (cl-some (lambda (f) (pcxc-extract--same-form-p f form))
                       pcxc-extract--found)
        (push form pcxc-extract--found)))
    nil))

(defun pcxc-extract--environment ()
  "The `macroexpand-all' environment used for walking.
Besides the recorders it keeps `eval-when-compile' and `eval-and-compile'
from running their bodies: they are walked as plain code instead."
  (append (mapcar (lambda (h) (cons h (pcxc-extract--recorder h)))
                  pcxc-extract-heads)
          (list (cons 'eval-when-compile (lambda (&rest body) (cons 'progn body)))
                (cons 'eval-and-compile (lambda (&rest body) (cons 'progn body))))))

(defun pcxc-extract--walk (form)
  "Recorded outermost pcase-family forms of top-level FORM, in order.
Returns the symbol `error' when Emacs cannot expand FORM."
  (setq pcxc-extract--found nil)
  (condition-case nil
      (progn
        (macroexpand-all form (pcxc-extract--environment))
        (reverse pcxc-extract--found))
    (error 'error)))

(defun pcxc-extract--in-code-text-p (pos)
  "Non-nil if POS is outside strings and comments."
  (save-excursion (not (nth 8 (syntax-ppss pos)))))

(defun pcxc-extract--locate (form start end used)
  "Position of the text in START..END that reads as FORM, or nil.
Positions in USED (a list) are taken already."
  (save-excursion
    (goto-char start)
    (let ((found nil))
      (while (and (not found)
                  (re-search-forward pcxc-extract-head-regexp end t))
        (let ((pos (match-beginning 0)))
          (when (and (not (memq pos used))
                     (pcxc-extract--in-code-text-p pos)
                     (equal (condition-case nil
                                (car (read-from-string
                                      (buffer-substring-no-properties pos end)))
                              (error nil))
                            form))
            (setq found pos))))
      found)))

(defun pcxc-extract--printed (form)
  "FORM printed on one line, or nil if it does not read back `equal'."
  (let* ((print-escape-newlines t)
         (print-escape-control-characters t)
         (print-escape-nonascii t)
         (print-circle t)
         (print-gensym t)
         (print-length nil)
         (print-level nil)
         (text (prin1-to-string form)))
    (and (not (string-match-p "[\t\n]" text))
         (equal (condition-case nil (car (read-from-string text)) (error nil))
                form)
         text)))

(defun pcxc-extract--lexical-p ()
  "Non-nil if the current buffer's first line enables lexical binding."
  (save-excursion
    (goto-char (point-min))
    (re-search-forward "lexical-binding: *\\([^ \t\n;]+\\)" (line-end-position) t)
    (and (match-beginning 1)
         (not (equal (match-string 1) "nil")))))

(defun pcxc-extract--compile-time-p (form)
  "Non-nil if the byte compiler would evaluate top-level FORM.
Macros are defined only when the name is still free: a library's own
source version of a standard macro must not replace the loaded one."
  (pcase (car-safe form)
    ((or 'defmacro 'cl-defmacro)
     (and (symbolp (cadr form)) (not (fboundp (cadr form)))))
    ((or 'require 'eval-when-compile 'eval-and-compile) t)))

(defun pcxc-extract--maybe-define (form)
  "Evaluate FORM when the byte compiler would, so later forms can use it."
  (when (pcxc-extract--compile-time-p form)
    (condition-case nil
        (let ((inhibit-message t)) (eval form t))
      (error nil))))

(defun pcxc-extract--feature ()
  "The feature the current buffer's file provides, or nil."
  (save-excursion
    (goto-char (point-min))
    (and (re-search-forward "^(provide '\\([^ \t\n)]+\\))" nil t)
         (match-string-no-properties 1))))

(defun pcxc-extract--flags (lexical feature)
  "The FLAGS column for a form of a file with LEXICAL binding and FEATURE."
  (concat (if lexical "lex" "dyn") ",pool"
          (if feature (concat ",require=" feature) "")))

(defvar pcxc-extract--definitions nil
  "Struct and pattern-macro definitions read so far in the current file.
An alist of (NAME . FORM): top-level `cl-defstruct' and `pcase-defmacro'
forms, which an expander learns from when it reads the file; calls of a
macro of the file that define a struct (as xref.el's `xref--defstruct');
and the file's `defmacro' forms, which such calls need before them.")

(defun pcxc-extract--file-macro-p (name)
  "Non-nil if NAME is a macro defined by a `defmacro' of the current file."
  (eq (car-safe (cdr (assq name pcxc-extract--definitions))) 'defmacro))

(defun pcxc-extract--defstruct-of (form)
  "The `cl-defstruct' form FORM is or makes, as a call of one of the
file's macros (one expansion step), or nil."
  (cond
   ((eq (car-safe form) 'cl-defstruct) form)
   ((and (consp form) (symbolp (car form)) (pcxc-extract--file-macro-p (car form)))
    (let ((exp (condition-case nil (macroexpand-1 form) (error nil))))
      (and (eq (car-safe exp) 'cl-defstruct) exp)))))

(defun pcxc-extract--note-definition (form)
  "Remember FORM if it is a top-level struct or pattern-macro definition,
or a macro definition."
  (pcase form
    (`(,(or 'defmacro 'cl-defmacro) ,(and name (pred symbolp)) . ,_)
     (push (cons name form) pcxc-extract--definitions))
    (`(pcase-defmacro ,(and name (pred symbolp)) . ,_)
     (push (cons name form) pcxc-extract--definitions))
    (_ (pcase (pcxc-extract--defstruct-of form)
         (`(cl-defstruct ,(or `(,(and name (pred symbolp)) . ,_)
                              (and name (pred symbolp)))
                         . ,_)
          (push (cons name form) pcxc-extract--definitions))))))

(defun pcxc-extract--struct-parent (form)
  "The struct a `cl-defstruct' FORM (or a call making one) includes, or nil."
  (let* ((def (pcxc-extract--defstruct-of form))
         (opts (and (consp (cadr def)) (cdr (cadr def)))))
    (cl-some (lambda (o) (and (eq (car-safe o) :include) (cadr o))) opts)))

(defun pcxc-extract--needed (form)
  "Names of the remembered definitions FORM uses as struct or pattern heads."
  (let ((names '()) (stack (list form)))
    (while stack
      (let ((x (pop stack)))
        (when (consp x)
          (when (and (eq (car x) 'cl-struct) (symbolp (car-safe (cdr x))))
            (push (cadr x) names))
          (when (and (symbolp (car x)) (assq (car x) pcxc-extract--definitions)
                     (eq (car (cdr (assq (car x) pcxc-extract--definitions)))
                         'pcase-defmacro))
            (push (car x) names))
          (while (consp x) (push (car x) stack) (setq x (cdr x))))))
    names))

(defun pcxc-extract--prelude (form)
  "The definitions FORM needs from earlier in its file, oldest first.
Included structs bring their parents along."
  (let ((names (pcxc-extract--needed form)) (forms '()))
    (while names
      (let ((def (cdr (assq (pop names) pcxc-extract--definitions))))
        (when (and def (not (memq def forms)))
          (push def forms)
          (let ((parent (pcxc-extract--struct-parent def)))
            (when parent (push parent names)))
          (when (pcxc-extract--file-macro-p (car def)) ; a wrapper's definition
            (push (car def) names)))))
    (sort forms (lambda (a b) (< (cl-position a (reverse pcxc-extract--definitions)
                                              :key #'cdr)
                                 (cl-position b (reverse pcxc-extract--definitions)
                                              :key #'cdr))))))

(defun pcxc-extract--emit (out rel form pos flags)
  "Write the case line for FORM found at POS of file REL into buffer OUT."
  (let ((text (pcxc-extract--printed form))
        (prelude (mapcar #'pcxc-extract--printed (pcxc-extract--prelude form))))
    (if (or (not text) (memq nil prelude))
        (pcxc-extract--count 'unprintable)
      (let ((line (line-number-at-pos pos))
            (col (save-excursion (goto-char pos) (1+ (current-column)))))
        (with-current-buffer out
          (insert (format "%s:%d:%d\t%s\t%s\t=\t%s%s\n"
                          rel line col flags text (car form)
                          (if prelude (concat "\t" (string-join prelude " ")) ""))))
        (pcxc-extract--count 'forms)
        (when prelude (pcxc-extract--count 'with-definitions))
        (pcxc-extract--count (car form))))))

(defun pcxc-extract--top-level (out rel form start end flags)
  "Collect the pcase-family forms of top-level FORM at START..END."
  (when (save-excursion
          (goto-char start)
          (re-search-forward pcxc-extract-head-regexp end t))
    (let ((found (pcxc-extract--walk form))
          (used nil))
      (if (eq found 'error)
          (pcxc-extract--count 'unexpandable-top-level-forms)
        (dolist (f found)
          (let ((pos (pcxc-extract--locate f start end used)))
            (if (not pos)
                (pcxc-extract--count 'not-in-source-text)
              (push pos used)
              (pcxc-extract--emit out rel f pos flags)))))))
  (pcxc-extract--note-definition form)
  (pcxc-extract--maybe-define form))

(defun pcxc-extract--insert (file)
  "Insert FILE decoded as Emacs reads it.
Compressed files are inflated in this process when zlib is built in,
instead of through an external gzip for each file."
  (if (not (and (string-suffix-p ".gz" file) (zlib-available-p)))
      (insert-file-contents file)
    (set-buffer-multibyte nil)
    (insert-file-contents-literally file)
    (zlib-decompress-region (point-min) (point-max))
    (let ((coding (or (car (find-auto-coding (string-remove-suffix ".gz" file)
                                             (buffer-size)))
                      'undecided)))
      (set-buffer-multibyte t)
      (decode-coding-region (point-min) (point-max) coding))))

(defun pcxc-extract-file (file rel out)
  "Append the case lines of FILE (named REL in ids) to buffer OUT."
  (with-temp-buffer
    (pcxc-extract--insert file)
    (emacs-lisp-mode)
    ;; The file's own binding mode: macros such as `defcustom' (its
    ;; value in a lambda) and `named-let' (an error under dynamic
    ;; binding) expand differently without it.
    (let* ((lexical-binding (pcxc-extract--lexical-p))
           (flags (pcxc-extract--flags lexical-binding (pcxc-extract--feature)))
           (done nil))
      (setq pcxc-extract--definitions nil)
      (goto-char (point-min))
      (while (not done)
        (forward-comment (buffer-size))
        (if (eobp)
            (setq done t)
          (let ((start (point)))
            (condition-case nil
                (let ((form (read (current-buffer))))
                  (pcxc-extract--top-level out rel form start (point) flags))
              (error
               (pcxc-extract--count 'unreadable-files)
               (setq done t)))))))))

(defun pcxc-extract-corpus (dir)
  "The relative names of DIR/**/*.el.gz, sorted byte-wise."
  (sort (mapcar (lambda (f) (file-relative-name f dir))
                (directory-files-recursively dir "\\.el\\.gz\\'"))
        #'string<))

(defun pcxc-extract-main ()
  "Command-line entry: OUT.tsv CORPUS-DIR."
  (let* ((out-file (pop command-line-args-left))
         (dir (file-name-as-directory (pop command-line-args-left)))
         (files (pcxc-extract-corpus dir))
         (start (float-time))
         (out (generate-new-buffer " *pcxc-out*")))
    (setq pcxc-extract--stats nil)
    (with-current-buffer out
      (insert "# Generated by pcxc-extract.el from " dir
              " - outermost pcase-family forms in code positions.\n"))
    (dolist (rel files)
      (pcxc-extract--count 'files)
      (pcxc-extract-file (expand-file-name rel dir)
                         (string-remove-suffix ".gz" rel) out))
    (with-current-buffer out
      (let ((coding-system-for-write 'utf-8-emacs-unix))
        (write-region nil nil out-file nil 'silent)))
    (princ (format "extract: %s (%.1f s)\n"
                   (mapconcat (lambda (c) (format "%s %d" (car c) (cdr c)))
                              (reverse pcxc-extract--stats) " ")
                   (- (float-time) start)))))

(provide 'pcxc-extract)

;;; pcxc-extract.el ends here
