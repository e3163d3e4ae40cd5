;;; corpus-expand.el --- check pcexpand's expansion of a corpus  -*- lexical-binding: t -*-

;; Run as:
;;   emacs -Q --batch -l corpus-expand.el -f pcx-expand-check LIST SRC OUT RECORDS
;;
;; LIST names files relative to the directories SRC (the input) and OUT
;; (what `pcexpand --out-dir OUT SRC' wrote), one per line.  RECORDS holds
;; the JSON lines of `pcexpand --format=json SRC' (one per replaced form,
;; with the input's path as given and the form's line/column span).  For
;; every file:
;;  - the output is read as Emacs reads a Lisp file, without an error;
;;  - no pcase-family, cond* or stray cond* keyword head is left in a code
;;    position of its forms (a walker that knows where code is: quote,
;;    function, lambda lists, let bindings, condition-case handlers,
;;    backquote templates, declare and interactive specs);
;;  - outside the replaced forms the bytes are those of the input: the text
;;    between replaced spans (cut from the input with the records'
;;    positions) is found unchanged in the output, each replaced span being
;;    the record's expansion (cli.md 4.1; a re-emitted comment may turn the
;;    whitespace before a form into a line break and indentation).
;; Prints details of failures on stderr, then one line on stdout:
;;   "files N sites N read-errors N heads-left N text-mismatches N"

(require 'json)
(require 'subr-x)

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

(defun pcx--code-parts (form)
  "The parts of FORM (a cons in a code position) that are code, as a list."
  (let ((head (car form)) (args (cdr-safe form)))
    (cond
     ((memq head '(quote declare interactive)) nil)
     ((eq head 'function)
      (let ((f (car-safe args)))
        (and (eq (car-safe f) 'lambda) (cddr f))))
     ((eq head 'lambda) (cdr-safe args))
     ((memq head pcx--definers) (cdr-safe (cdr-safe args)))
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

(defun pcx--check-text (file src out records)
  "Compare buffers SRC and OUT outside the spans of RECORDS; t when equal."
  (let ((spos (with-current-buffer src (point-min)))
        (opos (with-current-buffer out (point-min)))
        (ok t))
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
    ok))

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

(defun pcx--check-file (rel src-dir out-dir records counts)
  "Check one file; COUNTS is a vector of the four failure counters."
  (let ((out-file (expand-file-name rel out-dir)))
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
      (unless (pcx--check-text rel src out records)
        (aset counts 2 (1+ (aref counts 2))))
      (kill-buffer src)
      (kill-buffer out))))

(defun pcx-expand-check ()
  "Check the files listed in the first argument (see the commentary)."
  (let* ((list (pop command-line-args-left))
         (src-dir (pop command-line-args-left))
         (out-dir (pop command-line-args-left))
         (table (pcx--records (pop command-line-args-left) src-dir))
         (counts (make-vector 3 0))
         (files 0) (sites 0))
    (with-temp-buffer
      (insert-file-contents list)
      (dolist (rel (split-string (buffer-string) "\n" t))
        (let ((records (gethash rel table)))
          (setq files (1+ files) sites (+ sites (length records)))
          (pcx--check-file rel src-dir out-dir records counts))))
    (princ (format "files %d sites %d read-errors %d heads-left %d text-mismatches %d\n"
                   files sites (aref counts 0) (aref counts 1) (aref counts 2)))))

;;; corpus-expand.el ends here
