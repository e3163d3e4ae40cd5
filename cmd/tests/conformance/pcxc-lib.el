;;; pcxc-lib.el --- conformance harness: cases, values, stubs, evaluation  -*- lexical-binding: t -*-

;; Shared by the driver (pcxc-run.el) and its worker processes.  A case is
;; a form that contains pcase-family forms, plus how to evaluate it: a
;; wrapper (a lambda whose body holds the symbol `pcxc-hole' where the form
;; goes) and a list of input tuples to call the wrapper with.  The original
;; is expanded by this Emacs's own macros, the expansion comes from the
;; expander under test; both are put into the same wrapper, evaluated on the
;; same inputs with the same stubs, and their values, signalled errors and
;; stub call logs are compared.  Cases with an expected result are compared
;; with it instead.  The case file format is described in
;; testdata/conformance/README.md.

(require 'cl-lib)
(require 'subr-x)

;;;; The reference Emacs

(defconst pcxc-libraries '(cl-lib cl-macs subr-x seq map rx eieio byte-opt)
  "Libraries loaded before any case runs.
seq, map, rx, cl-macs and eieio define pattern macros the cases use;
byte-opt is loaded on purpose so that its facts can be read once and then
removed (see `pcxc--strip-facts').")

(defconst pcxc-real-extra
  '(funcall apply mapcar mapc mapcan mapconcat signal throw error user-error
    format format-message ignore identity always list cons append nconc
    nreverse reverse sort copy-sequence copy-tree copy-alist setcar setcdr
    aset puthash remhash gethash make-hash-table plist-put plist-get
    lax-plist-put assoc assoc-default alist-get rassoc member delete delq
    remove remq memq memql car cdr car-safe cdr-safe nth nthcdr last butlast
    length safe-length proper-list-p string-match string-match-p match-string
    match-beginning match-end match-data set-match-data number-to-string
    string-to-number intern intern-soft make-symbol split-string string-join
    string-trim string-trim-left string-trim-right string-prefix-p
    string-suffix-p string-empty-p string-remove-prefix string-remove-suffix
    substring substring-no-properties concat vconcat vector
    char-to-string string-to-list string-to-char
    upcase downcase capitalize type-of eq eql equal not null consp atom
    listp nlistp symbolp keywordp stringp vectorp arrayp sequencep numberp
    integerp natnump floatp functionp recordp characterp booleanp
    hash-table-p char-or-string-p aref elt min max abs + - * / % mod 1+ 1-
    = /= < > <= >= zerop logand logior ash expt float truncate floor
    ceiling round seqp seq--elt-safe seq-drop seq-take
    seq-elt seq-length seq-subseq seq-into seq-filter seq-remove seq-map
    seq-reduce seq-some seq-every-p seq-find seq-uniq seq-empty-p seq-first
    seq-rest mapp map-elt map-keys map-values map-pairs map-into cl-typep
    cl-every cl-some cl-remove-if cl-remove-if-not cl-find cl-find-if
    cl-position cl-member cl-assoc cl-subseq cl-list* cl-getf cl-evenp
    cl-oddp cl-plusp cl-minusp cl-first cl-second cl-third
    cl-struct-slot-value eieio-object-p eieio-oref rx-to-string regexp-quote
    regexp-opt prin1-to-string symbol-name symbol-value
    marker-position buffer-name subr-name hash-table-count)
  "Functions that run for real in cases besides byte-opt's side-effect-free ones.
They depend only on their arguments, or change only their arguments,
or are control functions; the harness itself uses some of them while
stubs are installed, so they must never be stubbed.")

(defconst pcxc-never-real-regexp
  (concat "time\\|random\\|gensym\\|\\`window-\\|\\`frame-\\|frame\\'"
          "\\|selected-\\|minibuffer\\|\\`this-\\|recent-keys\\|\\`user-"
          "\\|invocation\\|getenv\\|memory\\|marker\\|\\`mark\\'\\|region-"
          "\\|buffer-list\\|\\`sxhash-eq\\|locale\\|documentation\\|\\`kbd\\'"
          "\\|interactive-p\\|recursion-depth\\|prefix-numeric\\|\\`file-"
          "\\|keymap\\|current-\\(global\\|local\\|minor\\)"
          "\\|\\`make-\\(list\\|string\\|vector\\|bool-vector\\)\\'"
          "\\|\\`number-sequence\\'")
  "Side-effect-free functions that are stubbed like unknown functions:
they read a changing world, or allocate as much as an argument says
(a subject can be a bignum).")

(defvar pcxc--real (make-hash-table :test 'eq)
  "Functions evaluated for real in cases (all others that cases call are stubbed).")

(defvar pcxc--stripped-at -1
  "Length of `load-history' when facts were last removed.")

(defun pcxc--collect-real-functions ()
  "Fill `pcxc--real' from byte-opt's facts and `pcxc-real-extra'."
  (clrhash pcxc--real)
  (mapatoms
   (lambda (s)
     (when (and (get s 'side-effect-free)
                (not (string-match-p pcxc-never-real-regexp (symbol-name s))))
       (puthash s t pcxc--real))))
  (dolist (s pcxc-real-extra)
    (puthash s t pcxc--real)))

(defun pcxc--strip-facts ()
  "Remove the facts that let Emacs's pcase evaluate calls while expanding.
Emacs's pcase evaluates predicates marked `side-effect-free' on constants
at expansion time when byte-opt is loaded (it is, as soon as seq is).  The
behaviour the expansions are checked against is that of a bare Emacs, which
evaluates no predicate at expansion time (pcase.md 3.4).  Libraries loaded later may add new
marks, so this runs again whenever `load-history' has grown."
  (unless (= (length load-history) pcxc--stripped-at)
    (mapatoms (lambda (s)
                (when (get s 'side-effect-free) (put s 'side-effect-free nil))
                (when (get s 'pure) (put s 'pure nil))))
    (setq pcxc--stripped-at (length load-history))))

(defconst pcxc-buffer-text "(foo bar)\nbaz 42 \"str\"\n"
  "Contents of the buffer current while a case runs.")

(defvar pcxc--buffer nil "The buffer current while a case runs.")
(defvar pcxc--buffer-tick nil "Its modification tick after the last reset.")

(defun pcxc-setup ()
  "Make this Emacs the reference: libraries, quoting style, no folding facts."
  (dolist (f pcxc-libraries) (require f))
  (setq text-quoting-style 'grave)
  ;; Redefining a primitive must not start the native compiler (it would
  ;; load comp.el in some processes and not in others, and it fails on
  ;; some primitives); stubs are called from interpreted code anyway.
  (when (boundp 'comp-enable-subr-trampolines)
    (setq comp-enable-subr-trampolines nil))
  (when (boundp 'native-comp-deferred-compilation)
    (setq native-comp-deferred-compilation nil))
  ;; Evaluating a lambda, Emacs 30's interpreter trims the closure's
  ;; environment by expanding and analysing its body then and there
  ;; (cconv-make-interpreted-closure): it would call functions a case has
  ;; stubbed (function-get, delete-dups, the form's own cconv-...) and log
  ;; calls compiled code never makes.  Closures keep their whole
  ;; environment instead, which changes no result.
  (setq internal-make-interpreted-closure-function nil)
  (setq max-lisp-eval-depth (max max-lisp-eval-depth 3000)
        max-specpdl-size (max max-specpdl-size 6000))
  (pcxc--collect-real-functions)
  (pcxc--strip-facts)
  (setq pcxc--buffer (get-buffer-create " *pcxc*"))
  (with-current-buffer pcxc--buffer
    (erase-buffer)
    (insert pcxc-buffer-text)
    (setq pcxc--buffer-tick (buffer-modified-tick))))

;;;; Printing and reading

(defmacro pcxc--with-print-settings (&rest body)
  "Run BODY with the print settings of all files the harness writes:
one line per object, readable back, uninterned symbols kept apart."
  `(let ((print-escape-newlines t)
         (print-escape-control-characters t)
         (print-escape-nonascii t)
         (print-escape-multibyte nil)
         (print-circle t)
         (print-gensym t)
         (print-quoted t)
         (print-length nil)
         (print-level nil)
         (float-output-format nil))
     ,@body))

(defun pcxc-print (obj)
  "OBJ printed readably on one line."
  (pcxc--with-print-settings (prin1-to-string obj)))

(defun pcxc-show (obj &optional limit)
  "OBJ printed for a report, cut after LIMIT characters (default 300)."
  (let ((s (pcxc-print obj))
        (limit (or limit 300)))
    (if (> (length s) limit) (concat (substring s 0 limit) "...") s)))

(defun pcxc-read-whole (text)
  "The one object TEXT holds; an error if anything but blanks follows it."
  (let ((r (read-from-string text)))
    (unless (string-match-p "\\`[ \t\n]*\\'" (substring text (cdr r)))
      (error "Trailing text after form: %s" (substring text (cdr r))))
    (car r)))

(defun pcxc-write-file (file text)
  "Write TEXT to FILE in Emacs's internal encoding."
  (let ((coding-system-for-write 'utf-8-emacs-unix))
    (write-region text nil file nil 'silent)))

(defun pcxc-append-file (file text)
  "Append TEXT to FILE in Emacs's internal encoding."
  (let ((coding-system-for-write 'utf-8-emacs-unix))
    (write-region text nil file 'append 'silent)))

(defun pcxc-file-string (file)
  "Contents of FILE decoded as Emacs's internal encoding."
  (with-temp-buffer
    (let ((coding-system-for-read 'utf-8-emacs-unix))
      (insert-file-contents file))
    (buffer-string)))

(defun pcxc-read-objects (file)
  "All Lisp objects in FILE, in order."
  (with-temp-buffer
    (let ((coding-system-for-read 'utf-8-emacs-unix))
      (insert-file-contents file))
    (goto-char (point-min))
    (let ((objs '()))
      (while (progn (forward-comment (buffer-size)) (not (eobp)))
        (push (read (current-buffer)) objs))
      (nreverse objs))))

;;;; Case files

(defun pcxc--parse-flags (text)
  "The flag symbols of the FLAGS column TEXT (\"-\" means none)."
  (unless (equal text "-")
    (mapcar #'intern (split-string text "," t " "))))

(defun pcxc-read-all (text)
  "All objects TEXT holds, in order."
  (let ((pos 0) (objs '()))
    (while (string-match "[^ \t\n]" text pos)
      (let ((r (read-from-string text pos)))
        (push (car r) objs)
        (setq pos (cdr r))))
    (nreverse objs)))

(defun pcxc--parse-line (line file lineno)
  "The case on LINE (number LINENO of FILE), or nil for blank/comment lines."
  (unless (or (string-match-p "\\`[ \t]*\\'" line)
              (string-prefix-p "#" line))
    (let ((fields (split-string line "\t")))
      (unless (<= 4 (length fields) 6)
        (error "%s:%d: expected 4 to 6 tab-separated fields, got %d"
               file lineno (length fields)))
      (list :id (nth 0 fields)
            :flags (pcxc--parse-flags (nth 1 fields))
            :form (condition-case err (pcxc-read-whole (nth 2 fields))
                    (error (error "%s:%d: unreadable form: %S"
                                  file lineno err)))
            :expected (nth 3 fields)
            :notes (or (nth 4 fields) "")
            :prelude (condition-case err (pcxc-read-all (or (nth 5 fields) ""))
                       (error (error "%s:%d: unreadable prelude: %S"
                                     file lineno err)))
            :where (format "%s:%d" file lineno)))))

(defun pcxc-read-cases (file)
  "The cases of the TSV case FILE."
  (let ((lineno 0) (cases '()))
    (dolist (line (split-string (pcxc-file-string file) "\n"))
      (setq lineno (1+ lineno))
      (let ((c (pcxc--parse-line line file lineno)))
        (when c (push c cases))))
    (nreverse cases)))

(defun pcxc-parse-expected (text)
  "The expected-result column TEXT as (KIND . DATA).
KIND is `same' (compare with Emacs's own expansion), `expand-error'
(DATA: a diagnostic code or nil), `error' (DATA: a symbol, or a full
error object) or `value' (DATA: the value)."
  (cond
   ((equal text "=") (list 'same))
   ((equal text "EXPAND-ERROR") (list 'expand-error))
   ((string-prefix-p "EXPAND-ERROR:" text)
    (cons 'expand-error (substring text 13)))
   ((string-prefix-p "ERROR:" text)
    (cons 'error (pcxc-read-whole (substring text 6))))
   (t (cons 'value (pcxc-read-whole text)))))

(defun pcxc-case-features (case)
  "The features named by CASE's require=FEATURE flags."
  (delq nil (mapcar (lambda (f)
                      (let ((name (symbol-name f)))
                        (and (string-prefix-p "require=" name)
                             (intern (substring name 8)))))
                    (plist-get case :flags))))

(defun pcxc-require-quietly (features)
  "Load FEATURES, ignoring any that fail to load."
  (dolist (f features)
    (condition-case nil
        (let ((inhibit-message t)) (require f))
      (error nil))))

;;;; Values

(defconst pcxc-base-pool
  '(nil t 0 1 -1 2 3 42 1180591620717411303424 1.0 -0.0 0.5 0.0e+NaN
    "" "a" "abc" "A" a b foo quote lambda :a :key
    (1 . 2) (a . b) (a) (a b) (1 2) (1 2 3) (a b c) (1 2 . 3) (nil)
    ((a . 1) (b . 2)) ((a 1) (b 2)) (quote x) (function f) ("a" "b")
    (:key val) (:a 1 :b 2) ((1 2) (3 4)) (((a))) ("a" . [1])
    [] [1] [a b] [1 2 3] [(1 2) "x"] [[1]] #s(pcxc-rec 1 2))
  "Subject values every case is evaluated on.")

(defconst pcxc-tame-pool
  '(nil t 0 1 2 "a" "abc" a foo :k (1 2) (a . b) (a b c) ((a . 1)) [1 2])
  "Values of free variables: small, so that loops over them stay short.")

(defconst pcxc-stub-returns
  '(nil nil nil t 0 1 "s" sym :k (1 2) (a . b) (a) [1 2] ((k . v)))
  "Values stubs return; nil is common so that predicates go both ways.")

(defun pcxc-copy (v)
  "A fresh copy of V down to its conses and vectors, so that mutation by
one evaluation cannot be seen by the next."
  (copy-tree v t))

(defun pcxc--hash (key)
  "A hash of KEY that is the same in every Emacs process."
  (let ((print-length nil) (print-level nil) (print-circle nil)
        (print-escape-newlines nil))
    (sxhash-equal (prin1-to-string key))))

(defun pcxc-pick (key pool)
  "A fresh copy of the element of POOL chosen by KEY."
  (pcxc-copy (nth (mod (pcxc--hash key) (length pool)) pool)))

(defconst pcxc-abs-depth 8 "Depth below which `pcxc-abs' stops looking.")
(defconst pcxc-abs-length 40 "Elements of a list or vector `pcxc-abs' keeps.")

(defvar pcxc-lambda-is-function nil
  "Non-nil if lists starting with `lambda' are functions to abstract.
True for dynamically bound cases, where a lambda evaluates to itself and
its body is whatever expansion created it; under lexical binding such a
list can only be data.")

(defun pcxc--function-list-p (v)
  "Non-nil if the list V looks like an interpreted function.
A closure's environment holds the temporaries of whichever expansion
created it, so closures are never compared."
  (and (or (eq (car v) 'closure)
           (and pcxc-lambda-is-function (eq (car v) 'lambda)))
       (consp (cdr v))
       (listp (cadr v))))

(defun pcxc--abs-list (v depth)
  "Abstraction of the list V (see `pcxc-abs')."
  (let ((out '()) (n 0))
    (while (and (consp v) (< n pcxc-abs-length)
                (not (pcxc--function-list-p v)))
      (push (pcxc-abs (car v) (1+ depth)) out)
      (setq v (cdr v) n (1+ n)))
    (let ((tail (cond ((not (consp v)) (pcxc-abs v (1+ depth)))
                      ((pcxc--function-list-p v) '<function>)
                      (t '<more>))))
      (nconc (nreverse out) tail))))

(defun pcxc--abs-symbol (v)
  "Abstraction of the symbol V: uninterned ones compare by name."
  (if (or (null v) (keywordp v) (eq (intern-soft (symbol-name v)) v))
      v
    (list '<uninterned> (symbol-name v))))

(defun pcxc-abs (v &optional depth)
  "V reduced to data that two evaluations can compare with `equal'.
Functions and objects with identity (buffers, markers...) become tokens,
since original and expansion may legitimately create different ones;
text properties are dropped; deep or long structure is cut off."
  (let ((depth (or depth 0)))
    (cond
     ((> depth pcxc-abs-depth) '<deep>)
     ((symbolp v) (pcxc--abs-symbol v))
     ((numberp v) v)
     ((stringp v) (substring-no-properties v))
     ((consp v) (pcxc--abs-list v depth))
     ((or (byte-code-function-p v) (subrp v)) '<function>)
     ((vectorp v) (vconcat (pcxc--abs-list (append v nil) depth)))
     ((recordp v)
      (cons '<record> (pcxc--abs-list (cl-loop for i below (length v)
                                               collect (aref v i))
                                      depth)))
     ((bool-vector-p v) v)
     ((hash-table-p v) (list '<hash-table> (hash-table-count v)))
     ((markerp v) (list '<marker> (marker-position v)))
     ((bufferp v) (list '<buffer> (buffer-name v)))
     (t (list '<object> (type-of v))))))

;;;; Pattern-derived subject values

(defconst pcxc-sample-cap 24 "Most values derived from one slot's patterns.")

(defun pcxc--cap (list n)
  "The first N distinct elements of LIST."
  (let ((out '()))
    (while (and list (< (length out) n))
      (unless (member (car list) out) (push (car list) out))
      (setq list (cdr list)))
    (nreverse out)))

(defun pcxc--product (as ds f)
  "F applied to pairs from AS x DS, at most 6 results."
  (let ((out '()))
    (dolist (a (pcxc--cap as 3))
      (dolist (d (pcxc--cap ds 3))
        (push (funcall f a d) out)))
    (pcxc--cap (nreverse out) 6)))

(defun pcxc--any-values (depth)
  "Representatives for a position a pattern does not constrain."
  (if (> depth 2) '(1) '(1 (a))))

(defun pcxc--qsamples (q depth)
  "Values matching backquote pattern body Q."
  (cond
   ((> depth 6) (list nil))
   ((eq (car-safe q) '\,)
    (or (pcxc-samples (cadr q) (1+ depth)) (pcxc--any-values depth)))
   ((consp q)
    (pcxc--product (pcxc--qsamples (car q) (1+ depth))
                   (pcxc--qsamples (cdr q) (1+ depth)) #'cons))
   ((vectorp q)
    (let ((vs (list nil)))
      (dolist (e (append q nil))
        (setq vs (pcxc--product vs (pcxc--qsamples e (1+ depth))
                                (lambda (l x) (append l (list x))))))
      (mapcar #'vconcat vs)))
   (t (list q))))

(defun pcxc--union-samples (pats depth)
  "Samples of every pattern of PATS, together."
  (pcxc--cap (apply #'append
                    (mapcar (lambda (p) (pcxc-samples p (1+ depth))) pats))
             pcxc-sample-cap))

(defun pcxc-samples (pat &optional depth)
  "Values that the pcase pattern PAT is likely to match (nil: no idea).
Only constants and structure are looked at; predicates are left to the
value pool."
  (let ((depth (or depth 0)))
    (pcase pat
      ((guard (> depth 8)) nil)
      ((or (pred keywordp) (pred integerp) (pred stringp)) (list pat))
      ((pred symbolp) nil)
      (`(quote ,c) (list c))
      (`(\` ,q) (pcxc--qsamples q (1+ depth)))
      (`(,(or 'and 'or) . ,ps) (pcxc--union-samples ps depth))
      (`(app ,(or 'car 'car-safe) ,p)
       (mapcar #'list (pcxc-samples p (1+ depth))))
      (`(app ,(or 'cdr 'cdr-safe) ,p)
       (mapcar (lambda (s) (cons 'x s)) (pcxc-samples p (1+ depth))))
      (`(seq . ,ps)
       (list (mapcar (lambda (p) (car (pcxc-samples p (1+ depth))))
                     (seq-take-while (lambda (p) (not (eq p '&rest))) ps))))
      (_ nil))))

(defun pcxc-slot-pool (patterns &optional kind base)
  "Subject values for one slot whose value is matched against PATTERNS.
KIND `list' asks for lists of such values (the list of a pcase-dolist).
BASE is the general pool (default `pcxc-base-pool')."
  (let* ((samples (pcxc--union-samples patterns -1))
         (base (or base pcxc-base-pool)))
    (if (eq kind 'list)
        (pcxc--cap (append (list nil)
                           (mapcar #'list samples)
                           (pcxc--product samples (reverse samples) #'list)
                           (seq-filter #'proper-list-p base))
                   (+ (length base) pcxc-sample-cap))
      (pcxc--cap (append samples base)
                 (+ (length base) pcxc-sample-cap)))))

(defun pcxc-inputs (pools &optional count)
  "Input tuples for slots with value POOLS (a list of lists).
Slot K of tuple I is element I + 5K (cyclically) of pool K; there are as
many tuples as the longest pool has values, or COUNT when given."
  (let ((n (or count (apply #'max 1 (mapcar #'length pools)))))
    (cl-loop for i below n
             collect (cl-loop for pool in pools for k from 0
                              collect (nth (mod (+ i (* 5 k)) (length pool))
                                           pool)))))

;;;; Functions called by cases

(define-error 'pcxc-budget "Too many stub calls in one evaluation")

(defconst pcxc-call-budget 3000
  "Stub calls allowed in one evaluation; more means a runaway loop.")

(defvar pcxc--log nil "Calls noted during the current evaluation, newest first.")
(defvar pcxc--calls 0 "Stub calls made during the current evaluation.")
(defvar pcxc--tuple nil "The input tuple of the current evaluation.")
(defvar pcxc--index 0 "The number of the current input tuple.")

(defvar pcxc--running nil
  "Non-nil while a case is evaluated (`pcxc-run').")

(defun pcxc-note (name args)
  "Record a call of NAME with ARGS; signal `pcxc-budget' past the budget.
Outside an evaluation, signal an error: Emacs 30 calls an `app' function
on the constants of later clauses while it compiles a pcase (pcase.md
3.7), and the harness's functions stand for a file's own functions,
which are not defined while the file is compiled, so such a call fails
and Emacs does not refine the clause (as pcexpand assumes)."
  (unless pcxc--running
    (error "%s is not defined while the code is compiled" name))
  (setq pcxc--calls (1+ pcxc--calls))
  (when (> pcxc--calls pcxc-call-budget)
    (signal 'pcxc-budget nil))
  (let ((entry (cons name (pcxc-abs args))))
    (push entry pcxc--log)
    entry))

(defun pcxc-stub-call (name args)
  "The behaviour of every stub: note the call, answer from its arguments."
  (pcxc-pick (pcxc-note name args) pcxc-stub-returns))

(defun pcxc-val (k)
  "A fresh copy of slot K of the current input (a substituted subject).
Calls are noted, so the number of subject evaluations is compared too."
  (pcxc-note 'pcxc-val (list k))
  (pcxc-copy (nth k pcxc--tuple)))

(defun pcxc-args ()
  "Fresh copies of all slots of the current input (pcase-lambda arguments)."
  (mapcar #'pcxc-copy pcxc--tuple))

(defun pcxc-free (name)
  "The value of the free variable NAME for the current input."
  (pcxc-pick (list name pcxc--index) pcxc-tame-pool))

;;;; Preparing corpus forms ("pool" cases)

(defconst pcxc-harness-prefix "pcxc-" "Prefix of all names the harness adds.")

(defun pcxc--harness-symbol-p (s)
  "Non-nil if S is one of the harness's own names."
  (string-prefix-p pcxc-harness-prefix (symbol-name s)))

(defun pcxc-symbols (tree)
  "The distinct symbols in TREE (conses and vectors), in order of appearance."
  (let ((seen (make-hash-table :test 'eq)) (out '()) (stack (list tree)))
    (while stack
      (let ((x (pop stack)))
        (cond ((consp x) (push (cdr x) stack) (push (car x) stack))
              ((vectorp x) (setq stack (append (append x nil) stack)))
              ((and (symbolp x) x (not (gethash x seen)))
               (puthash x t seen) (push x out)))))
    (nreverse out)))

(defun pcxc--free-variable-p (s)
  "Non-nil if S gets a value of its own in a pool case's wrapper."
  (let ((name (symbol-name s)))
    (not (or (eq s t) (keywordp s) (boundp s) (special-form-p s)
             (eq s '_) (string-prefix-p "&" name)
             (pcxc--harness-symbol-p s)))))

(defun pcxc--slot-expr (k)
  "The expression that stands for slot K's value."
  (list 'pcxc-val k))

(defun pcxc--subst-bindings (bindings next-slot)
  "BINDINGS of a pcase-let with pattern values replaced by slots.
NEXT-SLOT is the first free slot number.  Returns (BINDINGS . PATTERNS)."
  (let ((out '()) (pats '()) (k next-slot))
    (dolist (b bindings)
      (if (or (symbolp b) (symbolp (car-safe b)))
          (push b out)
        (push (list (car b) (pcxc--slot-expr k)) out)
        (push (car b) pats)
        (setq k (1+ k))))
    (cons (nreverse out) (nreverse pats))))

(defun pcxc--subst-setq (args)
  "Arguments of a pcase-setq with values of pattern pairs replaced by slots.
Returns (ARGS . PATTERNS)."
  (let ((out '()) (pats '()) (k 0))
    (while args
      (let ((pat (pop args)) (val (pop args)))
        (unless (symbolp pat)
          (push pat pats)
          (setq val (pcxc--slot-expr k) k (1+ k)))
        (push pat out)
        (push val out)))
    (cons (nreverse out) (nreverse pats))))

(defun pcxc--lambda-patterns (arglist)
  "The argument patterns of a pcase-lambda ARGLIST that receive values."
  (cl-loop for a in arglist
           until (eq a '&rest)
           unless (eq a '&optional) collect a))

(defun pcxc--prepare-head (form copyable)
  "FORM with its subject values replaced by slots.
COPYABLE non-nil makes a pcase subject the plain variable `pcxc-s'.
Returns (NEW-FORM CALL PATTERN-LISTS SLOT-KINDS), CALL being how the
wrapper uses the form."
  (pcase form
    (`(,(and head (or 'pcase 'pcase-exhaustive)) ,_ . ,clauses)
     (list `(,head ,(if copyable 'pcxc-s (pcxc--slot-expr 0)) ,@clauses)
           'pcxc-hole (list (mapcar #'car-safe clauses)) '(nil)))
    (`(,(and head (or 'pcase-let 'pcase-let*)) ,bindings . ,body)
     (let ((r (pcxc--subst-bindings bindings 0)))
       (list `(,head ,(car r) ,@body) 'pcxc-hole
             (mapcar #'list (cdr r)) (mapcar #'ignore (cdr r)))))
    (`(pcase-dolist (,pat ,_ . ,result) . ,body)
     (list `(pcase-dolist (,pat ,(pcxc--slot-expr 0) ,@result) ,@body)
           'pcxc-hole (list (list pat)) '(list)))
    (`(pcase-setq . ,args)
     (let ((r (pcxc--subst-setq args)))
       (list (cons 'pcase-setq (car r)) 'pcxc-hole
             (mapcar #'list (cdr r)) (mapcar #'ignore (cdr r)))))
    (`(pcase-lambda ,arglist . ,_)
     (let ((pats (pcxc--lambda-patterns arglist)))
       (list form '(apply pcxc-hole (pcxc-args))
             (mapcar #'list pats) (mapcar #'ignore pats))))
    (_ (error "Not a pcase-family form: %S" (car-safe form)))))

(defun pcxc-prepare-pool (case copyable)
  "Make the pool CASE ready to run: subjects from slots, free variables bound.
The wrapper binds every free variable of the form to a value that varies
with the input and returns the form's value together with the final
values of those variables, so assignments to them are compared too."
  (pcase-let* ((`(,form ,call ,pattern-lists ,kinds)
                (pcxc--prepare-head (plist-get case :form) copyable))
               (free (seq-filter #'pcxc--free-variable-p (pcxc-symbols form)))
               (pools (cl-mapcar #'pcxc-slot-pool pattern-lists kinds)))
    (append (list :form form
                  :wrapper `(lambda (pcxc-s)
                              (ignore pcxc-s)
                              (let ,(mapcar (lambda (v) `(,v (pcxc-free ',v)))
                                            free)
                                (list ,call ,@free)))
                  :inputs (pcxc-inputs (or pools (list pcxc-base-pool))))
            case)))

(defun pcxc-prepare-plain (case)
  "Make CASE ready to run once as it is (cases with expected values)."
  (append (list :wrapper '(lambda () pcxc-hole) :inputs (list nil)) case))

;;;; Running one case (worker side)

(defvar pcxc--stubbed nil
  "Saved definitions of the functions stubbed by `pcxc--install'.")

(defun pcxc--call-sites (code)
  "Symbols CODE calls or quotes as functions (heads and #' operands)."
  (let ((out '()) (stack (list code)))
    (while stack
      (let ((x (pop stack)))
        (when (consp x)
          (when (symbolp (car x)) (push (car x) out))
          (when (and (eq (car x) 'function) (symbolp (car-safe (cdr x))))
            (push (cadr x) out))
          (while (consp x)
            (push (car x) stack)
            (setq x (cdr x))))))
    (delete-dups out)))

(defun pcxc--stub-p (s called)
  "Non-nil if S must be replaced by a stub; CALLED lists called symbols."
  (and (symbolp s) s (not (eq s t)) (not (keywordp s))
       (not (gethash s pcxc--real))
       (not (pcxc--harness-symbol-p s))
       (not (special-form-p s))
       (not (macrop s))
       (or (fboundp s) (memq s called))))

(defun pcxc-stub-set (codes)
  "The functions to stub while running the macro-expanded CODES.
Every function that is not known to be harmless is replaced: unknown ones
(the form's own functions, whose files are not loaded) and known ones that
change the world (buffers, files, processes, messages...)."
  (let ((called (apply #'append (mapcar #'pcxc--call-sites codes))))
    (seq-filter (lambda (s) (pcxc--stub-p s called))
                (delete-dups (apply #'append (mapcar #'pcxc-symbols codes))))))

(defun pcxc--bindable-p (s)
  "Non-nil if the global variable S can be let-bound to its own value."
  (condition-case nil
      (progn (cl-progv (list s) (list (symbol-value s)) nil) t)
    (error nil)))

(defun pcxc--setq-targets (code)
  "The symbols CODE (macro-expanded) assigns with `setq'."
  (let ((out '()) (stack (list code)))
    (while stack
      (let ((x (pop stack)))
        (when (consp x)
          (when (eq (car x) 'setq)
            (let ((args (cdr x)))
              (while (consp args)
                (when (symbolp (car args)) (push (car args) out))
                (setq args (cdr-safe (cdr args))))))
          (while (consp x)
            (push (car x) stack)
            (setq x (cdr x))))))
    out))

(defun pcxc-global-set (codes)
  "Variables of CODES to bind dynamically around each evaluation.
A `setq' of a variable that is not bound locally changes its global
value; binding every assigned name around each evaluation keeps one
evaluation from seeing what an earlier one assigned.  (Other ways to
assign are functions, and those are stubbed.)  Names without a global
value are bound and then made void inside the binding, so reading them
still signals `void-variable'.  Returns (NAMES . VOID-NAMES)."
  (let ((names '()) (void '()))
    (dolist (s (delete-dups (apply #'append (mapcar #'pcxc--setq-targets codes))))
      (when (and s (not (eq s t)) (not (keywordp s))
                 (not (pcxc--harness-symbol-p s))
                 (not (eq s 'gensym-counter))
                 (pcxc--bindable-p s))
        (push s names)
        (unless (boundp s) (push s void))))
    (cons (cons 'gensym-counter (nreverse names)) void)))

(defconst pcxc--fset (symbol-function 'fset)
  "The primitive `fset', called directly: a case may have `fset' stubbed
while the harness still needs to put definitions back.")

(defun pcxc-make-stubs (names)
  "Stub definitions for the functions NAMES: ((NAME . STUB)...)."
  (mapcar (lambda (s) (cons s (lambda (&rest args) (pcxc-stub-call s args))))
          names))

(defun pcxc--install (stubs)
  "Install STUBS ((NAME . STUB)...); remember the old definitions."
  (setq pcxc--stubbed (mapcar (lambda (st) (cons (car st) (symbol-function (car st))))
                              stubs))
  (dolist (st stubs)
    (funcall pcxc--fset (car st) (cdr st))))

(defun pcxc--uninstall ()
  "Put back the definitions replaced by `pcxc--install'."
  (dolist (saved pcxc--stubbed)
    (funcall pcxc--fset (car saved) (cdr saved)))
  (setq pcxc--stubbed nil))

(defun pcxc--reset-world (tuple index)
  "The state every evaluation starts from, for input TUPLE number INDEX."
  (set-buffer pcxc--buffer)
  (unless (eq (buffer-modified-tick) pcxc--buffer-tick)
    (let ((inhibit-read-only t))
      (erase-buffer)
      (insert pcxc-buffer-text))
    (setq pcxc--buffer-tick (buffer-modified-tick)))
  (goto-char (point-min))
  (set-match-data nil)
  (setq pcxc--tuple tuple pcxc--index index pcxc--log nil pcxc--calls 0))

(defun pcxc-run (fn tuple index env)
  "Call FN on input TUPLE (number INDEX) under ENV = (STUBS NAMES . VOID).
STUBS is as `pcxc-make-stubs' returns.
Returns (OUTCOME LOG): OUTCOME is (ok VALUE) or (err ERROR), both
abstracted by `pcxc-abs', LOG the noted calls in order.  NAMES are bound
dynamically to their values (`gensym-counter' to 0), VOID ones made void
inside that binding, before the stubs go in, so that nothing but the case
itself runs while the stubs are installed."
  (pcxc--reset-world tuple index)
  (let* ((names (cadr env))
         (values (cons 0 (mapcar (lambda (s) (and (boundp s) (symbol-value s)))
                                 (cdr names))))
         (args (and tuple (list (pcxc-copy (car tuple)))))
         (outcome nil))
    (cl-progv names values
      (mapc #'makunbound (cddr env))
      (pcxc--install (car env))
      (unwind-protect
          (setq outcome (condition-case err
                            (let ((pcxc--running t))
                              (list 'ok (apply fn args)))
                          (t (list 'err err))))
        (pcxc--uninstall)))
    (list (pcxc-abs outcome) (reverse pcxc--log))))

(defun pcxc-compile (wrapper form lexical)
  "WRAPPER with FORM in its hole, macro-expanded and evaluated to a function.
Returns (ok FUNCTION CODE) or (expand-error MESSAGE)."
  (pcxc--strip-facts)
  (let ((whole (cl-subst form 'pcxc-hole wrapper)))
    (condition-case err
        (let ((code (let ((inhibit-message t) (lexical-binding lexical))
                      (macroexpand-all whole))))
          (list 'ok (eval code lexical) code))
      (error (list 'expand-error (error-message-string err))))))

(provide 'pcxc-lib)

;;; pcxc-lib.el ends here
