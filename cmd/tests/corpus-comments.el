;;; corpus-comments.el --- comments stay with their pcase clauses  -*- lexical-binding: t -*-

;; Run as:
;;   emacs -Q --batch -l corpus-comments.el -f pcx-comments-check PCEXPAND LIST SRC TMP
;;
;; LIST names files relative to the directory SRC, one per line.  For
;; every pcase or pcase-exhaustive form of those files that has a
;; comment line between its clauses (own-line comments after the
;; previous clause, or the subject, and before a clause's pattern):
;; each such comment line, which stood right before clause K's pattern,
;; must stand in pcexpand's output after the code of every earlier
;; clause's body and before the code of clause K's body - the first
;; copy of each body, where a body is copied to several places or
;; shared.
;;
;; Where a body's code is in an expansion is found with a probe: the
;; file is expanded a second time with one token of each body renamed
;; to a name of the same width that occurs nowhere in the file (an atom
;; body itself; else the first symbol of the body's first form that is
;; not a list's head, nil, t, a keyword or a string spanning lines, before
;; any nested pcase-family or cond* form).  A renamed token that heads nothing changes no
;; decision of the expander and no line of the layout: the check makes
;; sure of it, the second expansion with the probes put back must be the
;; first one, byte for byte.  The first occurrence of a probe is in the
;; first copy of its body; the body's first form starts where the lists
;; around the probe inside that form open.  A clause whose body has no
;; probe (it is empty, or begins with a nested expansion) is counted
;; apart ("unprobed"); one whose probe occurs nowhere has no code (it is
;; unreachable), and only the "after" half holds for its comments.
;;
;; Prints one line per comment line that breaks the rule (BREAKS), per
;; form whose second expansion differs (UNSURE), then:
;;   "forms N clauses N comment-lines N breaks N unsure N unprobed N"

(require 'json)
(require 'subr-x)
(require 'cl-lib)

(defconst pcx--heads-expanded
  '(pcase pcase-exhaustive pcase-let pcase-let* pcase-setq pcase-dolist
    pcase-lambda cond* match* bind* bind-and* pcase*)
  "Heads whose forms pcexpand replaces: a probe is never taken inside one.")

(defconst pcx--pool (concat (number-sequence #x2C00 #x2C2E))
  "The letters of probe names: a script Emacs's sources do not use.")

;;;; Reading the source

(defun pcx--code-p (pos)
  "Is POS outside strings and comments?  (Point and match data are kept.)"
  (save-excursion
    (save-match-data
      (let ((s (syntax-ppss pos))) (not (or (nth 3 s) (nth 4 s)))))))

(defun pcx--own-line-comments (from to)
  "Own-line comments in [FROM, TO): a list of (START . TEXT)."
  (let (out)
    (save-excursion
      (goto-char from)
      (while (re-search-forward "^[ \t]*\\(;.*\\)$" to t)
        (let ((s (match-beginning 1)))
          (when (and (>= s from) (pcx--code-p s))
            (push (cons s (string-trim-right (match-string 1))) out)))))
    (nreverse out)))

(defun pcx--elements (start)
  "The elements of the list at START: a list of (BEG . END)."
  (save-excursion
    (goto-char (1+ start))
    (let (out (end (1- (scan-sexps start 1))))
      (while (progn (forward-comment (buffer-size)) (< (point) end))
        (let ((b (point)))
          (forward-sexp 1)
          (push (cons b (point)) out)))
      (nreverse out))))

(defun pcx--symbol-at (beg end)
  "The symbol written in [BEG, END), or nil when that is not a symbol."
  (let* ((str (buffer-substring-no-properties beg end))
         (r (ignore-errors (read-from-string str))))
    (and r (= (cdr r) (length str)) (symbolp (car r)) (car r))))

(defun pcx--probe-token (beg end &optional inner)
  "The token of a body form [BEG, END) to rename: (TBEG TEND DEPTH), DEPTH
the lists around it inside the form, or nil when it is inside a nested
expansion (only its place is known then: the body's code starts before
it and ends after it); nil when the form has none.  INNER: the form is
code inside a nested expansion (an atom must be one that may become a
probe)."
  (save-excursion
    (goto-char beg)
    (if (not (memq (char-after) '(?\( ?\[ ?' ?` ?, ?#)))
        (and (or (not inner) (pcx--probe-atom-p beg end (pcx--symbol-at beg end)))
             (list beg end (and (not inner) 0)))
      (let ((found nil) (depth 0) (head nil) (open nil) (stop nil))
        (while (and (not found) (not stop) (< (point) end))
          (forward-comment (buffer-size))
          (let ((c (char-after)))
            (cond
             ((>= (point) end) (setq stop t))
             ((memq c '(?\( ?\[))
              (setq depth (1+ depth) head (eq c ?\() open (point))
              (forward-char 1))
             ((memq c '(?\) ?\]))
              (setq depth (1- depth) head nil)
              (forward-char 1))
             ((memq c '(?' ?` ?, ?@)) (forward-char 1))
             ((and (eq c ?#) (eq (char-after (1+ (point))) ?')) (forward-char 2))
             ((eq c ?#)
              (forward-sexp 1) (setq head nil))
             (t
              (let* ((b (point)) (e (progn (forward-sexp 1) (point)))
                     (s (pcx--symbol-at b e)))
                (cond
                 ((and head (memq s pcx--heads-expanded))
                  (setq stop t found (pcx--inner-probe open)))
                 ((and (not head) (pcx--probe-atom-p b e s))
                  (setq found (list b e (and (not inner) depth)))))
                (setq head nil))))))
        found))))

(defun pcx--list-elements (elt)
  "The elements of ELT (BEG . END) when it is a list, else nil."
  (and elt (eq (char-after (car elt)) ?\() (pcx--elements (car elt))))

(defun pcx--inner-probe (open)
  "A token of the code that the expansion of the nested form at OPEN
keeps (its subject, values and bodies, not its patterns): (TBEG TEND nil),
or nil."
  (let* ((elts (pcx--elements open))
         (head (pcx--symbol-at (car (car elts)) (cdr (car elts))))
         (parts
          (pcase head
            ((or 'pcase 'pcase-exhaustive)
             (cons (nth 1 elts)
                   (mapcan (lambda (c) (cdr (pcx--list-elements c))) (nthcdr 2 elts))))
            ((or 'pcase-let 'pcase-let*)
             (append (mapcar (lambda (b) (nth 1 (pcx--list-elements b)))
                             (pcx--list-elements (nth 1 elts)))
                     (nthcdr 2 elts)))
            ('pcase-dolist
             (cons (nth 1 (pcx--list-elements (nth 1 elts))) (nthcdr 2 elts))))))
    (cl-some (lambda (p)
               (let ((r (and p (pcx--probe-token (car p) (cdr p) t))))
                 (and r (list (nth 0 r) (nth 1 r) nil))))
             parts)))

(defun pcx--probe-atom-p (beg end sym)
  "May the atom [BEG, END) (SYM when a symbol) become a probe?  Not nil, t,
a keyword or a dot, which mean something of their own; not a string that
spans lines."
  (cond
   ((equal (buffer-substring-no-properties beg end) ".") nil)
   (sym (not (or (memq sym '(nil t)) (keywordp sym))))
   (t (not (save-excursion (goto-char beg) (search-forward "\n" end t))))))

(defun pcx--clauses (pos)
  "The clauses of the pcase form at POS: (START END COMMENTS PROBE NFORMS)
each, COMMENTS the own-line comments right before its pattern, PROBE the
token to rename or nil, NFORMS the forms of its body."
  (let* ((elts (pcx--elements pos)) (prev (cdr (nth 1 elts))) out)
    (dolist (c (nthcdr 2 elts))
      (let* ((cs (car c))
             (inner (and (eq (char-after cs) ?\() (pcx--elements cs)))
             (pat (car inner))
             (comments (append (pcx--own-line-comments prev cs)
                               (and pat (pcx--own-line-comments cs (car pat)))))
             (body (cdr inner)))
        (push (list cs (cdr c) comments
                    (and body (pcx--probe-token (car (car body)) (cdr (car body))))
                    (length body))
              out)
        (setq prev (cdr c))))
    (nreverse out)))

(defun pcx--pcase-forms ()
  "The pcase forms of the current buffer with comments between their
clauses: (START . CLAUSES) each."
  (let (out)
    (save-excursion
      (goto-char (point-min))
      (while (re-search-forward "(\\(pcase\\|pcase-exhaustive\\)[ \t\n]" nil t)
        (let ((s (match-beginning 0)))
          (when (pcx--code-p s)
            (let ((cl (condition-case nil (pcx--clauses s) (error nil))))
              (when (cl-some (lambda (c) (nth 2 c)) cl)
                (push (cons s cl) out)))))))
    (nreverse out)))

;;;; Probes

(defun pcx--probe-names (text widths)
  "One name per width of WIDTHS, that wide, none in TEXT nor twice: the
letters of a script Emacs's sources do not use, counting in base 47."
  (let ((pool (append pcx--pool nil)) (used (make-hash-table :test #'equal))
        (next (make-hash-table)))
    (mapcar (lambda (w)
              (let (name)
                (while (progn
                         (let ((i (gethash w next 0)) (cs nil))
                           (puthash w (1+ i) next)
                           (when (>= i (expt 47 (min w 4)))
                             (error "No probe name of width %d is left" w))
                           (dotimes (_ w)
                             (push (nth (% i 47) pool) cs)
                             (setq i (/ i 47)))
                           (setq name (apply #'string cs)))
                         (or (string-search name text) (gethash name used))))
                (puthash name t used)
                name))
            widths)))

;;;; Running pcexpand

(defun pcx--records (prog file)
  "pcexpand --format=json of FILE: a list of hash tables."
  (with-temp-buffer
    (let ((coding-system-for-read 'utf-8-unix) (coding-system-for-write 'utf-8-unix))
      (call-process prog nil '(t nil) nil "-q" "--format=json" file))
    (goto-char (point-min))
    (let (out)
      (while (not (eobp))
        (push (json-parse-string (buffer-substring-no-properties
                                  (point) (line-end-position)))
              out)
        (forward-line 1))
      (nreverse out))))

(defun pcx--site-span (r)
  "Where the form that record R replaced is in the current buffer (the
input): (START . END), found from its first line and its text."
  (let ((orig (gethash "original" r)))
    (save-excursion
      (goto-char (point-min))
      (forward-line (1- (gethash "line" r)))
      (search-forward (substring orig 0 (min 40 (length orig))))
      (cons (match-beginning 0) (+ (match-beginning 0) (length orig))))))

(defun pcx--site-of (records pos)
  "The record whose form holds POS, with its span: (RECORD START . END)."
  (cl-some (lambda (r)
             (let ((sp (pcx--site-span r)))
               (and (<= (car sp) pos) (< pos (cdr sp)) (cons r sp))))
           records))

;;;; The expansion

(defun pcx--comment-starts (text)
  "The comments of TEXT (Lisp): a list of (POS . TEXT), POS 1-based."
  (with-temp-buffer
    (insert text)
    (emacs-lisp-mode)
    (goto-char (point-min))
    (let (out)
      (while (re-search-forward ";" nil t)
        (let ((s (match-beginning 0)))
          (when (pcx--code-p s)
            (push (cons s (string-trim-right
                           (buffer-substring-no-properties s (line-end-position))))
                  out)
            (end-of-line))))
      (nreverse out))))

(defun pcx--body-span (text probe depth nforms)
  "Where the first copy of a body is in TEXT: (START . END), found from
its probe (nil when the probe occurs nowhere).  A probe inside a nested
expansion (DEPTH nil) gives its own place as both: the body's code starts
at or before it and ends at or after it, so that a comment found before
START is before the code's start, one found after END after its end only
perhaps."
  (with-temp-buffer
    (insert text)
    (emacs-lisp-mode)
    (goto-char (point-min))
    (when (re-search-forward (pcx--name-regexp probe) nil t)
      (goto-char (match-beginning 1))
      (if (not depth)
          (cons (point) (point))   ; inside a nested expansion: bounds only
      (when (> depth 0)
        (backward-up-list depth)
        (backward-prefix-chars))
      (let ((start (point)))
        (condition-case nil
            (forward-sexp nforms)
          (scan-error (message "NOTE: %d body forms after %s are not all there" nforms probe)))
        (cons start (point)))))))

;;;; The check

(defvar pcx--counts nil
  "forms clauses comment-lines breaks unsure unprobed forced")

(defun pcx--count (i &optional n)
  (aset pcx--counts i (+ (aref pcx--counts i) (or n 1))))

(defun pcx--forced (spans k)
  "Does the code of clause K's body (in SPANS) begin before the code of an
earlier clause's body ends?  Then no line is both after the one and
before the other."
  (let ((own (nth k spans)))
    (and (consp own)
         (cl-loop for j below k
                  thereis (let ((sp (nth j spans)))
                            (and (consp sp) (< (car own) (cdr sp))))))))

(defun pcx--same-before (site-start pos text)
  "How many comments of text TEXT start in [SITE-START, POS)."
  (let ((n 0))
    (save-excursion
      (goto-char site-start)
      (while (search-forward ";" pos t)
        (let ((s (match-beginning 0)))
          (when (pcx--code-p s)
            (when (equal (string-trim-right
                          (buffer-substring-no-properties s (line-end-position)))
                         text)
              (setq n (1+ n)))
            (end-of-line)))))
    n))

(defun pcx--check-form (rel line site-start clauses site-text probed-text names)
  "Check the comments of one form whose clauses are CLAUSES; SITE-START is
where the replaced form holding it starts."
  (let* ((orig-comments (pcx--comment-starts site-text))
         (spans (cl-mapcar
                 (lambda (c name)
                   (let ((p (nth 3 c)))
                     (cond ((zerop (nth 4 c)) 'none)
                           ((not p) (pcx--count 5) 'unprobed)
                           (t (or (pcx--body-span probed-text name (nth 2 p) (nth 4 c))
                                  'none)))))
                 clauses names))
         (k 0))
    (pcx--count 0)
    (pcx--count 1 (length clauses))
    (dolist (c clauses)
      (dolist (cm (nth 2 c))
        (pcx--count 2)
        ;; the Nth comment of this text in the replaced form is the Nth
        ;; in its expansion
        (let* ((n (pcx--same-before site-start (car cm) (cdr cm)))
               (at (car (nth n (cl-remove-if-not
                                (lambda (o) (equal (cdr o) (cdr cm)))
                                orig-comments))))
               (own (nth k spans))
               (bad nil))
          (cond
           ((not at) (setq bad "the comment is not in the output"))
           ((and (consp own) (>= at (car own)))
            (setq bad "it is not before its clause's body"))
           (t
            (cl-loop for j below k
                     for sp = (nth j spans)
                     when (and (consp sp) (< at (cdr sp)))
                     do (setq bad (format "it is not after clause %d's body" (1+ j)))
                     and return nil)))
          (cond
           ((not bad))
           ((pcx--forced spans k)
            (pcx--count 6)
            (message "FORCED %s:%d: clause %d: %s: %s" rel line (1+ k) bad (cdr cm)))
           (t
            (pcx--count 3)
            (message "BREAKS %s:%d: clause %d: %s: %s" rel line (1+ k) bad (cdr cm))))))
      (setq k (1+ k)))))

(defun pcx--probe-file (prog rel src tmp)
  "Check every form of SRC/REL with comments between its clauses."
  (let* ((file (expand-file-name rel src)) forms text)
    (with-temp-buffer
      (let ((coding-system-for-read 'utf-8-emacs-unix))
        (insert-file-contents file))
      (emacs-lisp-mode)
      (setq forms (pcx--pcase-forms) text (buffer-string))
      (when forms
        (let* ((all (apply #'append (mapcar #'cdr forms)))
               (probes (delq nil (mapcar (lambda (c) (nth 3 c)) all)))
               (names (pcx--probe-names
                       text
                       (mapcar (lambda (p) (string-width (buffer-substring
                                                          (nth 0 p) (nth 1 p))))
                               probes)))
               (name-of (cl-mapcar #'cons probes names))
               (probed (expand-file-name "probed.el" tmp))
               (records (pcx--records prog file)))
          ;; the probed copy: each probe renamed, from the last one back
          (let ((buf (current-buffer)))
            (with-temp-buffer
              (insert-buffer-substring buf)
              (dolist (pn (sort (copy-sequence name-of)
                                (lambda (a b) (> (car (car a)) (car (car b))))))
                (goto-char (nth 0 (car pn)))
                (delete-region (nth 0 (car pn)) (nth 1 (car pn)))
                (insert (cdr pn)))
              (let ((coding-system-for-write 'utf-8-emacs-unix))
                (write-region nil nil probed nil 'silent))))
          (let ((precords (pcx--records prog probed)))
            (dolist (f forms)
              (let* ((site (pcx--site-of records (car f)))
                     (r (car site))
                     (pr (and r (nth (cl-position r records) precords)))
                     (restored (and pr (pcx--restore (gethash "expansion" pr) name-of)))
                     (line (line-number-at-pos (car f)))
                     (cl (cdr f))
                     (fnames (mapcar (lambda (c) (cdr (assq (nth 3 c) name-of))) cl)))
                (cond
                 ((not r) nil)          ; not replaced: kept as written
                 ((not (equal (gethash "expansion" r) restored))
                  (pcx--count 4)
                  (let ((base (expand-file-name (format "unsure-%d" (aref pcx--counts 4)) tmp)))
                    (with-temp-file (concat base ".el") (insert (gethash "expansion" r)))
                    (with-temp-file (concat base "-probed.el") (insert (or restored "")))
                    (message "UNSURE %s:%d: the probes changed the expansion (%s.el)"
                             rel line base)))
                 (t (pcx--check-form rel line (cadr site)
                                     cl (gethash "expansion" r)
                                     (gethash "expansion" pr) fnames)))))))))))

(defun pcx--restore (text name-of)
  "TEXT with every probe name put back to the token it renamed (the
longest names first: a shorter one may be a part of them)."
  (dolist (pn (sort (copy-sequence name-of)
                    (lambda (a b) (> (length (cdr a)) (length (cdr b)))))
              text)
    (setq text (replace-regexp-in-string
                (pcx--name-regexp (cdr pn))
                (buffer-substring-no-properties (nth 0 (car pn)) (nth 1 (car pn)))
                text t t 1))))

(defun pcx--name-regexp (name)
  "A regexp whose group 1 is NAME with no letter of a name next to it."
  (concat "\\(?:\\`\\|[^" pcx--pool "]\\)\\(" (regexp-quote name)
          "\\)\\(?:[^" pcx--pool "]\\|\\'\\)"))

(defun pcx-comments-check ()
  "Check the files listed in the second argument (see the commentary)."
  (let* ((prog (pop command-line-args-left))
         (list (pop command-line-args-left))
         (src (pop command-line-args-left))
         (tmp (pop command-line-args-left)))
    (setq pcx--counts (make-vector 7 0))
    (with-temp-buffer
      (insert-file-contents list)
      (dolist (rel (split-string (buffer-string) "\n" t))
        (pcx--probe-file prog rel src tmp)))
    (princ (apply #'format (concat "forms %d clauses %d comment-lines %d breaks %d"
                                   " unsure %d unprobed %d forced %d\n")
                  (append pcx--counts nil)))))

;;; corpus-comments.el ends here
