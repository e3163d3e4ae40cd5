;;; bench-runtime.el --- run time of compiled expansions, Emacs's side  -*- lexical-binding: t -*-

;; Run by bench-runtime.sh (the meson benchmark `output-runtime'), one
;; process per function:
;;   emacs -Q --batch -L cmd/tests -L cmd/tests/conformance \
;;     -l bench-runtime.el -f bench-runtime-main SPEC.eld SOURCE.el EXPANDED.el \
;;     ROWS N
;; SPEC.eld (testdata/bench/runtime/) names a function of the corpus, its
;; file and feature, and the argument lists to call it with; SOURCE.el is
;; that file as written, EXPANDED.el the same file expanded by pcexpand.
;;
;; The file's library is loaded; then the function's definition is
;; compiled twice by Emacs's byte compiler: once with its pcase-family
;; forms expanded by Emacs (the definition of SOURCE.el, the family
;; expanded as in bench-output.el), once as pcexpand wrote it (the
;; definition of EXPANDED.el).  Both must return `equal' values on every
;; argument list.  Each is then installed in turn as the function and
;; called N times, cycling through the argument lists:
;; five rounds, the two taking turns (the first of a round alternates),
;; plus the same loop calling `ignore' (the cost of the loop itself).
;; Printed: the median CPU time of each, the ratio pcexpand / Emacs of the
;; medians less the loop's, the closures made per call (`make-closure'
;; calls counted by an advice during one pass over the argument lists),
;; the `make-closure' calls in each's byte code, and the lambdas
;; pcexpand's expansion binds to share code between clauses: one row,
;; appended to the file ROWS.

(require 'cl-lib)
(require 'bytecomp)
(require 'pcxc-lib)
(require 'bench-output)

(defconst bench-runtime-rounds 5 "Timed runs of each variant.")

(defconst bench-runtime-aim 1.05
  "Largest time ratio pcexpand / Emacs aimed at (docs/benchmarks.md).")

(defvar bench-runtime--closures 0 "`make-closure' calls counted so far.")

(defun bench-runtime--count-closure (&rest _)
  "Count one `make-closure' call (an advice, before the call)."
  (setq bench-runtime--closures (1+ bench-runtime--closures)))

(defun bench-runtime--loop (name calls vars n)
  "Call NAME N times, cycling through CALLS.
CALLS is a vector of (VALUES . ARGS): VALUES are assigned to the special
variables VARS before NAME is applied to ARGS."
  (let ((k (length calls)) (i 0))
    (while (< i n)
      (let ((c (aref calls (% i k))))
        (let ((vs vars) (vals (car c)))
          (while vs (set (pop vs) (pop vals))))
        (apply name (cdr c)))
      (setq i (1+ i)))))

;; Timed: compiled, as the functions it calls are.
(byte-compile 'bench-runtime--count-closure)
(byte-compile 'bench-runtime--loop)

;;;; The two definitions

(defun bench-runtime--definition (file name)
  "The top-level `defun' or `defsubst' of NAME in the Lisp source FILE."
  (with-temp-buffer
    (insert-file-contents file)
    (with-syntax-table emacs-lisp-mode-syntax-table
      (let ((found nil))
        (while (and (not found)
                    (progn (forward-comment (buffer-size)) (not (eobp))))
          (let ((f (read (current-buffer))))
            (when (and (memq (car-safe f) '(defun defsubst)) (eq (cadr f) name))
              (setq found f))))
        (or found (error "%s: no definition of %s" file name))))))

(defun bench-runtime--lambda (def)
  "The lambda of the definition DEF, without its `declare' forms."
  (let* ((body (nthcdr 3 def))
         (doc (and (stringp (car body)) (cdr body) (list (pop body)))))
    `(lambda ,(nth 2 def)
       ,@doc ,@(cl-remove-if (lambda (f) (eq (car-safe f) 'declare)) body))))

(defun bench-runtime--emacs-expanded (def)
  "DEF with each outermost pcase-family form expanded by Emacs."
  (let ((lexical-binding t))
    (bench-output--replace def (bench-output--replacements def def))))

(defun bench-runtime--compile (def)
  "DEF's function compiled by Emacs's byte compiler (lexical binding).
It is compiled as the value of a lambda without arguments (as
`bench-output-compile' does), which returns it."
  (funcall (car (bench-output-compile `(function ,(bench-runtime--lambda def))
                                      nil t))))

(defun bench-runtime--shared-lambdas (def)
  "How many lambdas pcexpand's DEF binds to its generated names."
  (let ((n 0))
    (bench-output-lists (lambda (x)
                          (when (and (symbolp (car x)) (bench-output--pcx-name-p (car x))
                                     (eq (car-safe (cadr x)) 'lambda))
                            (setq n (1+ n))))
                        def)
    n))

;;;; Which clauses the argument lists reach

(defvar bench-runtime--hits nil "Vector: how often each clause's body ran.")

(defun bench-runtime--instrument (x counter)
  "X with a hit count in front of each pcase clause's body.
COUNTER is a one-element list holding the number of clauses seen so far.
The walk is by shape: `pcase' and `pcase-exhaustive' lists outside
quoted data, as the functions of testdata/bench/runtime use them."
  (cond
   ((not (consp x)) x)
   ((eq (car x) 'quote) x)
   ((and (memq (car x) '(pcase pcase-exhaustive)) (proper-list-p x))
    `(,(car x) ,(bench-runtime--instrument (cadr x) counter)
      ,@(mapcar (lambda (clause)
                  (let ((k (car counter)))
                    (setcar counter (1+ k))
                    `(,(car clause) (aset bench-runtime--hits ,k
                                          (1+ (aref bench-runtime--hits ,k)))
                      ,@(bench-runtime--instrument (cdr clause) counter))))
                (cddr x))))
   ((proper-list-p x) (mapcar (lambda (e) (bench-runtime--instrument e counter)) x))
   (t x)))

(defun bench-runtime--coverage (name def calls vars)
  "(REACHED . CLAUSES): clauses of DEF's pcase forms that CALLS run."
  (let* ((counter (list 0))
         (inst (bench-runtime--instrument def counter)))
    (setq bench-runtime--hits (make-vector (car counter) 0))
    (fset name (bench-runtime--compile inst))
    (bench-runtime--results name calls vars)
    (cons (cl-count-if #'cl-plusp bench-runtime--hits) (car counter))))

;;;; Running

(defun bench-runtime--calls (spec)
  "SPEC's argument lists as a vector of (VALUES . ARGS)."
  (vconcat (mapcar (lambda (c) (if (plist-get spec :variables) c (cons nil c)))
                   (plist-get spec :calls))))

(defun bench-runtime--results (name calls vars)
  "The values of NAME on each of CALLS, as a list."
  (mapcar (lambda (c)
            (cl-mapc #'set vars (car c))
            (apply name (cdr c)))
          calls))

(defun bench-runtime--closures-per-call (name calls vars)
  "The `make-closure' calls per call of NAME over one pass through CALLS."
  (advice-add 'make-closure :before #'bench-runtime--count-closure)
  (unwind-protect
      (progn
        (setq bench-runtime--closures 0)
        (bench-runtime--loop name calls vars (length calls))
        (/ (float bench-runtime--closures) (length calls)))
    (advice-remove 'make-closure #'bench-runtime--count-closure)))

(defun bench-runtime--cpu-seconds ()
  "CPU time this process has used, in seconds.
CPU time, not wall-clock time: on a shared machine the time spent
waiting for a processor would count against whichever run it fell in."
  (let ((c (current-cpu-time)))
    (/ (float (car c)) (cdr c))))

(defun bench-runtime--time (name fn calls vars n)
  "CPU seconds N calls of NAME take, with FN installed as NAME.
Garbage collection during the calls counts: making closures is paid
for partly there."
  (fset name fn)
  (garbage-collect)
  (let ((t0 (bench-runtime--cpu-seconds)))
    (bench-runtime--loop name calls vars n)
    (- (bench-runtime--cpu-seconds) t0)))

(defun bench-runtime--median (xs)
  "The median of the numbers XS (an odd count)."
  (nth (/ (length xs) 2) (sort (copy-sequence xs) #'<)))

(defun bench-runtime--timings (name variants calls vars n)
  "Median seconds of N calls for each of VARIANTS, an alist (KEY . FN).
Each round runs every variant once; the order of the first two
alternates from round to round."
  (let ((times (mapcar (lambda (v) (list (car v))) variants)))
    (dotimes (r bench-runtime-rounds)
      (let ((order (if (cl-evenp r) variants
                     (append (list (cadr variants) (car variants))
                             (cddr variants)))))
        (dolist (v order)
          (push (bench-runtime--time name (cdr v) calls vars n)
                (cdr (assq (car v) times))))))
    (mapcar (lambda (c) (cons (car c) (bench-runtime--median (cdr c)))) times)))

(defun bench-runtime--check (name fns calls vars)
  "Signal an error unless the functions FNS give NAME equal values on CALLS."
  (let ((results (mapcar (lambda (fn) (fset name fn)
                           (bench-runtime--results name calls vars))
                         fns)))
    (cl-loop for a in (car results) for b in (cadr results) for i from 0
             unless (equal a b)
             do (error "Call %d: Emacs's expansion gives %S, pcexpand's %S" i a b))))

(defun bench-runtime-measure (spec source expanded n)
  "Measure SPEC's function from the files SOURCE and EXPANDED; a plist."
  (let* ((name (plist-get spec :function))
         (vars (plist-get spec :variables))
         (calls (bench-runtime--calls spec))
         (pdef (bench-runtime--definition expanded name))
         (fe (bench-runtime--compile (bench-runtime--emacs-expanded
                                      (bench-runtime--definition source name))))
         (fp (bench-runtime--compile pdef))
         (coverage (bench-runtime--coverage name (bench-runtime--definition
                                                  source name)
                                            calls vars)))
    (bench-runtime--check name (list fe fp) calls vars)
    (let ((times (bench-runtime--timings
                  name `((emacs . ,fe) (pcx . ,fp) (loop . ignore)) calls vars n)))
      (list :name name :calls (length calls) :n n :coverage coverage
            :emacs (alist-get 'emacs times) :pcx (alist-get 'pcx times)
            :loop (alist-get 'loop times)
            :closures-emacs (progn (fset name fe)
                                   (bench-runtime--closures-per-call name calls vars))
            :closures-pcx (progn (fset name fp)
                                 (bench-runtime--closures-per-call name calls vars))
            :sites-emacs (aref (bench-output-code-figures fe) 2)
            :sites-pcx (aref (bench-output-code-figures fp) 2)
            :shared (bench-runtime--shared-lambdas pdef)))))

(defun bench-runtime--ratio (m)
  "pcexpand's time over Emacs's in the measure M, the loop's time taken off."
  (let ((loop (plist-get m :loop)))
    (/ (max 1e-9 (- (plist-get m :pcx) loop))
       (max 1e-9 (- (plist-get m :emacs) loop)))))

(defun bench-runtime--row (m)
  "The row of the measure M."
  (let ((ratio (bench-runtime--ratio m)))
    (format "%-34s %5d %5s %8.1f %8.1f %6.1f %6.2f %-7s %5.2f %5.2f %4d %4d %4d\n"
                   (plist-get m :name) (plist-get m :calls)
                   (format "%d/%d" (car (plist-get m :coverage))
                           (cdr (plist-get m :coverage)))
                   (* 1000 (plist-get m :pcx)) (* 1000 (plist-get m :emacs))
                   (* 1000 (plist-get m :loop)) ratio
                   (if (<= ratio bench-runtime-aim) "MET" "NOT-MET")
                   (plist-get m :closures-pcx) (plist-get m :closures-emacs)
                   (plist-get m :sites-pcx) (plist-get m :sites-emacs)
                   (plist-get m :shared))))

(defun bench-runtime--setup (forms)
  "Evaluate the spec's setup FORMS; the functions they define are compiled."
  (dolist (f forms)
    (eval f t)
    (when (eq (car-safe f) 'defun)
      (byte-compile (cadr f)))))

(defun bench-runtime-main ()
  "Command-line entry: SPEC.eld SOURCE.el EXPANDED.el ROWS N.
The function's row is appended to the file ROWS."
  (let* ((args command-line-args-left)
         (spec (car (pcxc-read-objects (nth 0 args)))))
    (setq command-line-args-left nil)
    (let ((inhibit-message t))
      (require (plist-get spec :feature)))
    (bench-runtime--setup (plist-get spec :setup))
    (pcxc-append-file (nth 3 args)
                      (bench-runtime--row
                       (bench-runtime-measure spec (nth 1 args) (nth 2 args)
                                              (string-to-number (nth 4 args)))))))

(provide 'bench-runtime)

;;; bench-runtime.el ends here
