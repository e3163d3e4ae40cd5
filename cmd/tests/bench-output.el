;;; bench-output.el --- the output-quality benchmark, Emacs's side  -*- lexical-binding: t -*-

;; Run by bench-output.sh (the meson benchmark `output-quality'):
;;   emacs -Q --batch -L cmd/tests/conformance -l bench-output.el \
;;     -f bench-output-main CASES.tsv RECORDS.json DIAGNOSTICS [DETAILS.tsv]
;; CASES.tsv: the outermost pcase-family forms of the corpus as
;; pcxc-extract.el writes them (id FILE:LINE:COL, flags, form, prelude).
;; RECORDS.json: `pcexpand --format=json' run on the corpus files, one
;; record per replaced form (file, line, original text, expansion text);
;; DIAGNOSTICS: what it printed on standard error (its errors say why a
;; form has no record).
;;
;; Each form is paired with pcexpand's record of the same place and the
;; same text, and with Emacs's own expansion of it in which only the heads
;; of `bench-output-heads' are expanded (user code stays as written, as it
;; does in pcexpand's output).  Both are measured the same way: size,
;; nesting depth, binding sites of generated names, and the byte code
;; Emacs's compiler makes of each in a lambda taking the form's free
;; variables.  The figures are printed with their ratio pcexpand / Emacs;
;; DETAILS.tsv, when given, gets one row of figures per form.  What each
;; figure means is in docs/benchmarks.md.  Every figure but the time taken
;; is a count: two runs print the same numbers.

(require 'cl-lib)
(require 'subr-x)
(require 'bytecomp)
(require 'byte-opt)
(require 'pcxc-lib)
(require 'pcxc-extract)
;; The pattern macros of these libraries are used by corpus forms.
(dolist (f '(seq map rx eieio cl-macs cond-star))
  (require f nil t))

(defconst bench-output-heads
  '(pcase pcase-exhaustive pcase-let pcase-let* pcase-dolist pcase-setq
          pcase-lambda cond*)
  "Heads expanded in Emacs's side: those pcexpand replaces.")

(defconst bench-output-tag "pcx-bench-shared-code"
  "Docstring given to generated lambdas before compiling.
It marks their compiled prototypes, so that the `make-closure' calls
that create them can be told from those of the user's own lambdas.")

(defconst bench-output-aims
  '((size . 0.70) (temps . 0.5) (single . 0.2) (depth . 1.0) (bytes . 0.92)
    (constants . 1.0) (shared-closures . 0.5))
  "Largest ratio pcexpand / Emacs each figure aims at (docs/benchmarks.md).")

;;;; Emacs's expansion, the family only

(defun bench-output--family-p (form)
  "Non-nil if FORM is a form whose head `bench-output-heads' lists."
  (and (consp form) (memq (car form) bench-output-heads)))

(defun bench-output--expand-head (form)
  "FORM expanded by its head's macro until another head is on top."
  (while (bench-output--family-p form)
    (let ((next (macroexpand-1 form)))
      (when (eq next form)
        (error "%s did not expand" (car form)))
      (setq form next)))
  form)

(defun bench-output--nested (code)
  "The outermost family forms in code positions of CODE, as recorded.
Emacs's own `macroexpand-all' decides what is code (pcxc-extract.el's
walker, with the heads of this benchmark)."
  (let* ((pcxc-extract-heads bench-output-heads)
         (found (let ((inhibit-message t)) (pcxc-extract--walk code))))
    (when (eq found 'error)
      (error "macroexpand-all fails on the expansion"))
    found))

(defun bench-output--matches-p (x recorded)
  "Non-nil if the list X is the RECORDED form: same head, same arguments.
The walker records a fresh list of the same argument objects; a macro
that copies its body (as `cl-symbol-macrolet' may) leaves an `equal' one."
  (and (eq (car x) (car recorded))
       (or (pcxc-extract--same-form-p x recorded) (equal x recorded))))

(defun bench-output-lists (fn tree)
  "Call FN on each list of TREE: TREE itself and every element, at any depth.
Iterative: expansions nest deeper than the Lisp stack allows recursion."
  (let ((stack (list tree)))
    (while stack
      (let ((x (pop stack)))
        (when (consp x)
          (funcall fn x)
          (while (consp x) (push (pop x) stack)))))))

(defun bench-output--occurs-p (recorded tree)
  "Non-nil if a list in TREE is the RECORDED form."
  (catch 'found
    (bench-output-lists (lambda (x) (when (bench-output--matches-p x recorded)
                                      (throw 'found t)))
                        tree)
    nil))

(defun bench-output--replacements (code tree)
  "(RECORDED . EXPANSION) for each family form written in CODE's code.
A form the walker records but TREE does not hold was made by another
macro of the user's code (left as written): the family forms written
in its arguments are looked for in its own expansion instead."
  (cl-loop for r in (bench-output--nested code)
           append (if (bench-output--occurs-p r tree)
                      (list (cons r (bench-output-emacs-expand r)))
                    (bench-output--replacements (bench-output--expand-head r) tree))))

(defun bench-output--map-spine (fn list)
  "A copy of LIST, dotted or not, with FN applied to each element."
  (let* ((head (list nil)) (tail head))
    (while (consp list)
      (setq tail (setcdr tail (list (funcall fn (car list)))) list (cdr list)))
    (setcdr tail list)
    (cdr head)))

(defun bench-output--replace (tree pairs)
  "A copy of TREE where each list that is a recorded form is replaced.
PAIRS is a list of (RECORDED . REPLACEMENT)."
  (let ((memo (make-hash-table :test 'eq)))
    (cl-labels
        ((elt (x)
           (cond ((not (consp x)) x)
                 ((gethash x memo))
                 (t (let ((p (cl-find-if (lambda (p) (bench-output--matches-p x (car p)))
                                         pairs)))
                      (puthash x (if p (cdr p) (bench-output--map-spine #'elt x))
                               memo))))))
      (elt tree))))

(defun bench-output-emacs-expand (form)
  "Emacs's expansion of the family form FORM, other code as written.
The head is expanded by its macro; then each outermost family form left
in a code position of the result is expanded the same way, in place."
  (let* ((code (bench-output--expand-head form))
         (pairs (bench-output--replacements code code)))
    (if pairs (bench-output--replace code pairs) code)))

;;;; Sizes, depth, temporaries

(defun bench-output--size-depth (x)
  "(SIZE . DEPTH) of X.
SIZE counts conses and atoms (list terminators included, a vector as one
plus its elements), as the pcase-expand benchmark does; DEPTH is the
largest number of lists (or vectors) nested one in another."
  (let ((n 0) (depth 0) (stack (list (cons x 0))))
    (while stack
      (let* ((top (pop stack)) (v (car top)) (d (cdr top)))
        (setq n (1+ n))
        (cond ((consp v)
               (setq depth (max depth (1+ d)))
               (push (cons (cdr v) d) stack)
               (push (cons (car v) (1+ d)) stack))
              ((and (vectorp v) (not (recordp v)))
               (setq depth (max depth (1+ d)))
               (mapc (lambda (e) (push (cons e (1+ d)) stack)) v)))))
    (cons n depth)))

(defvar bench-output--generated-p nil
  "Predicate telling a generated name from a user's, for the current side.")

(defvar bench-output--sites nil
  "Binding sites found by the scan: (NAME . USES) cells, newest first.")

(defun bench-output--bind (vars env)
  "ENV extended with the generated names among VARS, each a new site."
  (dolist (v vars env)
    (when (and (symbolp v) (funcall bench-output--generated-p v))
      (let ((cell (cons v 0)))
        (push cell bench-output--sites)
        (push cell env)))))

(defun bench-output--var (binding)
  "The variable of a `let' BINDING (SYM or (SYM INIT))."
  (if (consp binding) (car binding) binding))

(defun bench-output--scan-list (forms env)
  "Scan each element of the list FORMS in ENV."
  (while (consp forms)
    (bench-output--scan (pop forms) env)))

(defun bench-output--scan-let (form env)
  "Scan a `let' FORM: inits in ENV, the body with all its variables."
  (dolist (b (cadr form))
    (when (consp b) (bench-output--scan-list (cdr b) env)))
  (bench-output--scan-list
   (cddr form) (bench-output--bind (mapcar #'bench-output--var (cadr form)) env)))

(defun bench-output--scan-let* (form env)
  "Scan a `let*' FORM: each init sees the variables bound before it."
  (dolist (b (cadr form))
    (when (consp b) (bench-output--scan-list (cdr b) env))
    (setq env (bench-output--bind (list (bench-output--var b)) env)))
  (bench-output--scan-list (cddr form) env))

(defun bench-output--scan-lambda (form env)
  "Scan a `lambda' FORM: its arguments are bound in its body."
  (bench-output--scan-list
   (cddr form)
   (bench-output--bind (cl-remove-if (lambda (a) (memq a '(&optional &rest)))
                                     (cadr form))
                       env)))

(defun bench-output--scan-dolist (form env)
  "Scan a `dolist' or `dotimes' FORM: its variable is bound in body and result."
  (let ((spec (cadr form)))
    (bench-output--scan (cadr spec) env)
    (let ((inner (bench-output--bind (list (car spec)) env)))
      (bench-output--scan-list (cddr spec) inner)
      (bench-output--scan-list (cddr form) inner))))

(defun bench-output--scan-condition-case (form env)
  "Scan a `condition-case' FORM: its variable is bound in the handlers."
  (bench-output--scan (nth 2 form) env)
  (let ((inner (bench-output--bind (list (nth 1 form)) env)))
    (dolist (h (nthcdr 3 form))
      (when (consp h) (bench-output--scan-list (cdr h) inner)))))

(defun bench-output--scan-function (form env)
  "Scan a `function' FORM: only a lambda inside holds code."
  (when (eq (car-safe (cadr form)) 'lambda)
    (bench-output--scan-lambda (cadr form) env)))

(defconst bench-output--binders
  '((let . bench-output--scan-let) (let* . bench-output--scan-let*)
    (lambda . bench-output--scan-lambda) (function . bench-output--scan-function)
    (dolist . bench-output--scan-dolist) (dotimes . bench-output--scan-dolist)
    (condition-case . bench-output--scan-condition-case)
    (quote . ignore))
  "Heads that bind variables (or hold no code), and how each is scanned.
Any other list is scanned element by element.")

(defun bench-output--scan (x env)
  "Count the references of X to the generated names bound in ENV.
ENV is an alist from names to the use counters of their binding sites."
  (cond
   ((symbolp x) (let ((cell (assq x env))) (when cell (cl-incf (cdr cell)))))
   ((not (consp x)) nil)
   ((and (symbolp (car x)) (assq (car x) bench-output--binders))
    (when (proper-list-p x)
      (funcall (cdr (assq (car x) bench-output--binders)) x env)))
   (t (bench-output--scan-list (if (symbolp (car x)) (cdr x) x) env))))

(defun bench-output-temporaries (form generated-p)
  "(SITES SINGLE-USE UNUSED NAMES) of FORM: binding sites of generated names.
GENERATED-P tells generated names from the user's.  A site's uses are
the references to its variable in its scope (assignments included);
NAMES are the generated names bound."
  (let ((bench-output--generated-p generated-p)
        (bench-output--sites nil))
    (bench-output--scan form nil)
    (list (length bench-output--sites)
          (cl-count 1 bench-output--sites :key #'cdr)
          (cl-count 0 bench-output--sites :key #'cdr)
          (delete-dups (mapcar #'car bench-output--sites)))))

(defun bench-output--uninterned-p (sym)
  "Non-nil if SYM is an uninterned symbol: Emacs's generated names."
  (and sym (not (eq sym (intern-soft (symbol-name sym))))))

(defun bench-output--pcx-name-p (sym)
  "Non-nil if SYM is one of pcexpand's generated names."
  (string-prefix-p "pcx--" (symbol-name sym)))

;;;; Byte code

(defun bench-output--tag-lambdas (form generated-p)
  "FORM with a docstring tag in each lambda bound to a generated name.
Those are the closures an expansion makes for code shared by clauses;
the user's lambdas are left alone."
  (cl-labels
      ((tag-init (init)
         (pcase init
           (`(lambda ,args . ,body)
            `(lambda ,args ,bench-output-tag . ,(walk body)))
           (`(function (lambda ,args . ,body))
            `(function (lambda ,args ,bench-output-tag . ,(walk body))))
           (_ (walk init))))
         (binding (b)
           (if (and (consp b) (symbolp (car b)) (funcall generated-p (car b))
                    (consp (cdr b)))
               (list (car b) (tag-init (cadr b)))
             (walk b)))
         (walk (x)
           (cond
            ((not (consp x)) x)
            ((and (memq (car x) '(let let*)) (consp (cdr x)) (listp (cadr x)))
             `(,(car x) ,(mapcar #'binding (cadr x)) . ,(walk (cddr x))))
            (t (bench-output--map-spine #'walk x)))))
    (walk form)))

(defconst bench-output--free-variable-regexp
  "\\(?:reference\\|assignment\\) to free variable `\\(.+\\)'\\'"
  "Matches the byte compiler's warnings about free variables.")

(defun bench-output-compile (form args lexical)
  "Byte-compile (lambda ARGS FORM) with LEXICAL binding.
Returns (FUNCTION . WARNINGS); warnings are the compiler's message texts."
  (let* ((warnings '())
         (byte-compile-log-warning-function
          (lambda (text &rest _) (push text warnings)))
         (text-quoting-style 'grave)
         (lexical-binding lexical)
         (inhibit-message t)
         (fn (byte-compile `(lambda ,args ,form))))
    (unless (byte-code-function-p fn)
      (error "The byte compiler returned no function"))
    (cons fn (nreverse warnings))))

(defun bench-output--free-variables (warnings)
  "The variables WARNINGS call free."
  (delq nil (mapcar (lambda (w)
                      (and (string-match bench-output--free-variable-regexp w)
                           (intern (match-string 1 w))))
                    warnings)))

(defun bench-output--proto-tagged-p (proto)
  "Non-nil if the compiled prototype PROTO carries `bench-output-tag'."
  (and (byte-code-function-p proto) (> (length proto) 4)
       (stringp (aref proto 4))
       (string-prefix-p bench-output-tag (aref proto 4))))

(defun bench-output--function-figures (fn acc)
  "Add FN's figures to ACC, a vector [BYTES CONSTANTS CLOSURES SHARED SWITCHES].
Returns the compiled functions among FN's constants."
  (let ((lap (byte-decompile-bytecode (aref fn 1) (aref fn 2)))
        (nested '()))
    (cl-incf (aref acc 0) (length (aref fn 1)))
    (cl-incf (aref acc 1) (length (aref fn 2)))
    (while lap
      (let ((op (pop lap)))
        (when (consp op)
          (when (eq (car op) 'byte-switch) (cl-incf (aref acc 4)))
          (when (and (eq (car op) 'byte-constant) (consp (cdr op))
                     (eq (cadr op) 'make-closure))
            (cl-incf (aref acc 2))
            (let ((proto (cl-find-if (lambda (o) (eq (car-safe o) 'byte-constant))
                                     lap)))
              (when (bench-output--proto-tagged-p (cadr proto))
                (cl-incf (aref acc 3))))))))
    (mapc (lambda (c) (when (byte-code-function-p c) (push c nested)))
          (aref fn 2))
    nested))

(defun bench-output-code-figures (fn)
  "[BYTES CONSTANTS CLOSURES SHARED-CLOSURES SWITCHES] of FN.
Summed over FN and the compiled functions in its constants, recursively:
code bytes, constants, `make-closure' calls, those of them making a
tagged (shared-code) closure, and `switch' instructions."
  (let ((acc (make-vector 5 0)) (todo (list fn)))
    (while todo
      (setq todo (append (bench-output--function-figures (pop todo) acc) todo)))
    acc))

;;;; One form

(defun bench-output--structure (code generated-p)
  "Plist of the structural figures of CODE."
  (let ((sd (bench-output--size-depth code))
        (temps (bench-output-temporaries code generated-p)))
    (list :size (car sd) :depth (cdr sd) :temps (nth 0 temps)
          :single (nth 1 temps) :unused (nth 2 temps) :names (nth 3 temps))))

(defun bench-output--normalize-warnings (warnings names)
  "WARNINGS with each quoted generated name of NAMES shown as `GEN'."
  (let ((names (mapcar #'symbol-name names)))
    (mapcar (lambda (w)
              (replace-regexp-in-string
               "`\\([^`']+\\)'"
               (lambda (m) (if (member (match-string 1 m) names) "`GEN'" m))
               w t t))
            (cl-remove-if (lambda (w) (string-match-p bench-output--free-variable-regexp w))
                          warnings))))

(defun bench-output--compile-side (code generated-p args lexical)
  "Plist of the byte-code figures of CODE compiled in (lambda ARGS CODE).
The figures come from CODE as it is; the count of closures for shared
code from a second compilation in which the generated lambdas carry
`bench-output-tag' (a docstring can change how a lambda without free
variables compiles, never whether a lambda makes a closure: the counts
of `make-closure' calls of both compilations are checked to agree)."
  (let* ((r (bench-output-compile code args lexical))
         (f (bench-output-code-figures (car r)))
         (g (bench-output-code-figures
             (car (bench-output-compile (bench-output--tag-lambdas code generated-p)
                                        args lexical)))))
    (unless (= (aref f 2) (aref g 2))
      (error "Tagging the generated lambdas changed the closures made: %d, %d"
             (aref f 2) (aref g 2)))
    (list :bytes (aref f 0) :constants (aref f 1) :closures (aref f 2)
          :shared-closures (aref g 3) :switches (aref f 4) :warnings (cdr r))))

(defun bench-output--compile-both (emacs pcx lexical)
  "Compile the two expansions EMACS and PCX alike; plists of their figures.
First each without arguments, to learn its free variables from the
compiler's warnings; then each in a lambda taking all of them (sorted by
name), so that neither compiles a free variable as a global one."
  (let* ((codes (list emacs pcx))
         (gens (list #'bench-output--uninterned-p #'bench-output--pcx-name-p))
         (free (cl-loop for c in codes
                        append (bench-output--free-variables
                                (cdr (bench-output-compile c nil lexical)))))
         (args (sort (delete-dups free)
                     (lambda (a b) (string< (symbol-name a) (symbol-name b))))))
    (cl-mapcar (lambda (c g) (bench-output--compile-side c g args lexical))
               codes gens)))

(defun bench-output--in-context (case fn)
  "Call FN; if it fails, load what CASE's form needs and call it again.
What it needs: the feature of its file and the earlier definitions of
its file it uses (pcxc-extract.el's prelude)."
  (condition-case nil
      (funcall fn)
    (error
     (pcxc-require-quietly (pcxc-case-features case))
     (dolist (def (plist-get case :prelude))
       (condition-case nil (let ((inhibit-message t)) (eval def t)) (error nil)))
     (funcall fn))))

(defun bench-output--lexical-p (case)
  "Non-nil if CASE's file uses lexical binding."
  (memq 'lex (plist-get case :flags)))

(defun bench-output-emacs-expansion (case)
  "Emacs's expansion of CASE's form in its file's context, or (skip . REASON)."
  (condition-case err
      (bench-output--in-context
       case (lambda () (let ((lexical-binding (bench-output--lexical-p case)))
                         (bench-output-emacs-expand (plist-get case :form)))))
    (error (cons 'skip (format "Emacs cannot expand it: %s"
                               (error-message-string err))))))

(defun bench-output-measure (case record)
  "Figures of CASE's form against pcexpand's RECORD, or (skip . REASON)."
  (let* ((lexical (bench-output--lexical-p case))
         (emacs (bench-output-emacs-expansion case))
         (pcx (condition-case err
                  (pcxc-read-whole (plist-get record :expansion))
                (error (cons 'skip (format "pcexpand's expansion does not read: %s"
                                           (error-message-string err)))))))
    (cond
     ((eq (car-safe emacs) 'skip) emacs)
     ((eq (car-safe pcx) 'skip) pcx)
     (t (bench-output-measure-pair case emacs pcx lexical)))))

(defun bench-output-measure-pair (case emacs pcx lexical)
  "Figures of the expansions EMACS and PCX of CASE's form, or (skip . REASON)."
  (condition-case err
      (let ((code (bench-output--in-context
                   case (lambda () (bench-output--compile-both emacs pcx lexical))))
            (se (bench-output--structure emacs #'bench-output--uninterned-p))
            (sp (bench-output--structure pcx #'bench-output--pcx-name-p)))
        (list :emacs (append se (car code)
                             (list :norm-warnings (bench-output--normalize-warnings
                                                   (plist-get (car code) :warnings)
                                                   (plist-get se :names))))
              :pcx (append sp (cadr code)
                           (list :norm-warnings (bench-output--normalize-warnings
                                                 (plist-get (cadr code) :warnings)
                                                 (plist-get sp :names))))))
    (error (cons 'skip (format "byte compiler error: %s" (error-message-string err))))))

;;;; pcexpand's records

(defun bench-output--read-records (file)
  "Hash table from \"FILE:LINE\" to the list of pcexpand's records there.
Each record is a plist (:original FORM :text ORIGINAL-TEXT :expansion TEXT
:macro HEAD :id ID);
FILE holds one JSON object per line."
  (let ((table (make-hash-table :test 'equal)))
    (dolist (line (split-string (pcxc-file-string file) "\n" t))
      (let* ((j (json-parse-string line :object-type 'plist))
             (key (format "%s:%d" (plist-get j :file) (plist-get j :line)))
             (orig (condition-case nil (pcxc-read-whole (plist-get j :original))
                     (error 'unreadable))))
        (when (memq (intern (plist-get j :macro)) bench-output-heads)
          (push (list :original orig :text (plist-get j :original)
                      :expansion (plist-get j :expansion)
                      :macro (plist-get j :macro)
                      :id (format "%s:%d:%d" (plist-get j :file) (plist-get j :line)
                                  (plist-get j :column)))
                (gethash key table)))))
    table))

(defun bench-output--take-record (table case)
  "Remove and return the record of TABLE for CASE's form, or nil.
It is the record at the same file and line whose original reads as the
same form."
  (let* ((id (plist-get case :id))
         (key (and (string-match "\\`\\(.*:[0-9]+\\):[0-9]+\\'" id)
                   (match-string 1 id)))
         (recs (gethash key table))
         (rec (cl-find (plist-get case :form) recs
                       :key (lambda (r) (plist-get r :original)) :test #'equal)))
    (when rec (puthash key (delq rec recs) table))
    rec))

;;;; Totals and report

(defconst bench-output--summed
  '(:size :depth :temps :single :unused :bytes :constants :closures
          :shared-closures :switches)
  "The per-form figures that are summed over the corpus.")

(defun bench-output--sum (results side key)
  "The sum of KEY over SIDE (:emacs or :pcx) of the measured RESULTS."
  (cl-loop for r in results sum (plist-get (plist-get (cdr r) side) key)))

(defun bench-output--ratio (p e)
  "P / E as a string, or \"-\" when E is 0."
  (if (zerop e) "-" (format "%.3f" (/ (float p) e))))

(defun bench-output--row (label p e &optional aim)
  "Print a figure LABEL: pcexpand's P, Emacs's E, ratio, and AIM's verdict."
  (princ (format "  %-40s %9d %9d  %6s%s\n" label p e (bench-output--ratio p e)
                 (if aim
                     (format "  (aim <= %.2f: %s)" aim
                             (if (<= p (* aim e)) "MET" "NOT MET"))
                   ""))))

(defun bench-output--forms-where (results pred)
  "The ids of RESULTS whose two sides satisfy (PRED EMACS PCX)."
  (cl-loop for r in results
           when (funcall pred (plist-get (cdr r) :emacs) (plist-get (cdr r) :pcx))
           collect (car r)))

(defun bench-output--print-list (title ids &optional show)
  "Print TITLE with the number of IDS, then the ids (SHOW formats each)."
  (princ (format "  %s: %d\n" title (length ids)))
  (dolist (id ids)
    (princ (format "    %s\n" (if show (funcall show id) id)))))

(defun bench-output--print-figures (results)
  "Print the summed figures of RESULTS, ((ID . (:emacs E :pcx P)) ...)."
  (let ((s (lambda (side key) (bench-output--sum results side key)))
        (aim (lambda (k) (cdr (assq k bench-output-aims)))))
    (princ (format "  %-40s %9s %9s  %6s\n" "" "pcexpand" "Emacs" "ratio"))
    (dolist (row `(("size (conses + atoms)" :size size)
                   ("temporaries (generated names bound)" :temps temps)
                   ("  used once" :single single)
                   ("  never used" :unused nil)
                   ("nesting depth, summed over the forms" :depth depth)
                   ("byte code: code bytes" :bytes bytes)
                   ("byte code: constants" :constants constants)
                   ("byte code: make-closure calls" :closures nil)
                   ("  of closures for shared code" :shared-closures shared-closures)
                   ("byte code: switch instructions" :switches nil)))
      (bench-output--row (nth 0 row) (funcall s :pcx (nth 1 row))
                         (funcall s :emacs (nth 1 row))
                         (and (nth 2 row) (funcall aim (nth 2 row)))))))

(defun bench-output--print-forms (results)
  "Print the forms that deserve a look: deeper, lost jump tables, warnings."
  (let ((by-id (lambda (id) (cdr (assoc id results)))))
    (bench-output--print-list
     "forms nested deeper than Emacs's expansion of them (aim: 0)"
     (bench-output--forms-where
      results (lambda (e p) (> (plist-get p :depth) (plist-get e :depth))))
     (lambda (id) (let ((r (funcall by-id id)))
                    (format "%s  depth %d, Emacs %d" id
                            (plist-get (plist-get r :pcx) :depth)
                            (plist-get (plist-get r :emacs) :depth)))))
    (let ((has (lambda (x) (> (plist-get x :switches) 0))))
      (princ (format "  forms with a jump table: Emacs %d, pcexpand %d, both %d\n"
                     (length (bench-output--forms-where results (lambda (e _) (funcall has e))))
                     (length (bench-output--forms-where results (lambda (_ p) (funcall has p))))
                     (length (bench-output--forms-where
                              results (lambda (e p) (and (funcall has e) (funcall has p)))))))
      (bench-output--print-list
       "jump tables lost (Emacs's has a switch, pcexpand's none; aim: 0)"
       (bench-output--forms-where
        results (lambda (e p) (and (funcall has e) (not (funcall has p)))))))
    (bench-output--print-list
     "forms with a compiler warning Emacs's expansion does not cause"
     (bench-output--forms-where
      results (lambda (e p) (cl-set-difference (plist-get p :norm-warnings)
                                               (plist-get e :norm-warnings)
                                               :test #'equal)))
     (lambda (id) (let ((r (funcall by-id id)))
                    (format "%s  %s" id
                            (string-join
                             (cl-set-difference (plist-get (plist-get r :pcx) :warnings)
                                                (plist-get (plist-get r :emacs) :warnings)
                                                :test #'equal)
                             "; ")))))))

(defun bench-output--print-skips (skips total)
  "Print the number of SKIPS, ((ID . REASON) ...), of TOTAL forms, and each."
  (princ (format "forms skipped: %d (%.2f%% of %d; aim < 2%%)\n" (length skips)
                 (if (zerop total) 0.0 (/ (* 100.0 (length skips)) total)) total))
  (dolist (s skips)
    (princ (format "  %s  %s\n" (car s) (cdr s)))))

(defun bench-output--write-details (file results)
  "Write one TSV row of figures per form of RESULTS to FILE."
  (with-temp-buffer
    (insert "id")
    (dolist (side '("pcx" "emacs"))
      (dolist (k bench-output--summed)
        (insert (format "\t%s-%s" side (substring (symbol-name k) 1)))))
    (insert "\n")
    (dolist (r results)
      (insert (car r))
      (dolist (side '(:pcx :emacs))
        (dolist (k bench-output--summed)
          (insert (format "\t%d" (plist-get (plist-get (cdr r) side) k)))))
      (insert "\n"))
    (pcxc-write-file file (buffer-string))))

(defun bench-output--read-errors (file)
  "pcexpand's error diagnostics in FILE: a list of (FILE LINE MESSAGE)."
  (let ((errors '()))
    (dolist (line (split-string (pcxc-file-string file) "\n" t))
      (when (string-match "\\`\\(.*\\):\\([0-9]+\\):[0-9]+: error: \\(.*\\)\\'" line)
        (push (list (match-string 1 line) (string-to-number (match-string 2 line))
                    (match-string 3 line))
              errors)))
    (nreverse errors)))

(defconst bench-output--error-lines 100
  "How far after a form's first line an error is taken for the form's.")

(defun bench-output--unreplaced-reason (case errors)
  "Why pcexpand replaced no form for CASE: the first of its ERRORS there.
An error of the same file at most `bench-output--error-lines' lines
after the form's first line is taken for the form's."
  (let* ((id (plist-get case :id))
         (file (and (string-match "\\`\\(.*\\):\\([0-9]+\\):[0-9]+\\'" id)
                    (match-string 1 id)))
         (line (string-to-number (match-string 2 id)))
         (err (cl-find-if (lambda (e) (and (equal (nth 0 e) file)
                                           (<= line (nth 1 e)
                                               (+ line bench-output--error-lines))))
                          errors)))
    (if err
        (format "pcexpand reports an error at line %d: %s" (nth 1 err) (nth 2 err))
      "pcexpand replaced no form with this text here")))

(defun bench-output--run (cases table errors)
  "Measure each of CASES against its record in TABLE.
ERRORS are pcexpand's error diagnostics, which say why a form has no
record.  Returns (RESULTS . SKIPS), each in the order of CASES."
  (let ((results '()) (skips '()))
    (dolist (c cases)
      (let* ((rec (bench-output--take-record table c))
             (r (if rec (bench-output-measure c rec)
                  (cons 'skip (bench-output--unreplaced-reason c errors)))))
        (if (eq (car r) 'skip)
            (push (cons (plist-get c :id) (cdr r)) skips)
          (push (cons (plist-get c :id) r) results))))
    (cons (nreverse results) (nreverse skips))))

(defun bench-output--unmatched (table)
  "Records of TABLE no case took, as (ID . REASON), sorted by id."
  (let ((left '()))
    (maphash (lambda (_ recs)
               (dolist (r recs)
                 (push (cons (plist-get r :id)
                             (format "%s replaced by pcexpand; not collected from Emacs's walk of the file (inside a list another macro builds, or a template)"
                                     (plist-get r :macro)))
                       left)))
             table)
    (sort left (lambda (a b) (string< (car a) (car b))))))

(defun bench-output-main ()
  "Command-line entry: CASES.tsv RECORDS.json DIAGNOSTICS [DETAILS.tsv]."
  (let* ((args command-line-args-left)
         (t0 (float-time))
         (max-lisp-eval-depth (max max-lisp-eval-depth 20000))
         (cases (pcxc-read-cases (nth 0 args)))
         (table (bench-output--read-records (nth 1 args)))
         (run (bench-output--run cases table (bench-output--read-errors (nth 2 args))))
         (results (car run))
         (skips (append (cdr run) (bench-output--unmatched table))))
    (setq command-line-args-left nil)
    (princ (format "output quality: %d forms compared, pcexpand's output against Emacs 30's expansion (pcase family only)\n"
                   (length results)))
    (bench-output--print-figures results)
    (bench-output--print-forms results)
    (bench-output--print-skips skips (+ (length results) (length skips)))
    (when (nth 3 args) (bench-output--write-details (nth 3 args) results))
    (princ (format "output quality: %.0f s\n" (- (float-time) t0)))))

(provide 'bench-output)

;;; bench-output.el ends here
