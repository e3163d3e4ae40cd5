;;; pcxc-run.el --- conformance harness: the driver  -*- lexical-binding: t -*-

;; Usage (see testdata/conformance/README.md):
;;   emacs -Q --batch -L DIR -l pcxc-run -f pcxc-main \
;;     --expander PROGRAM [--expander-arg ARG]... [--workdir DIR] [--jobs N]
;;     [--cases FILE.tsv]... [--random N] [--seed S] [--timeout SECONDS]
;;     [--max-skip-percent P] [--show N] [--shrink N] [--skip-flagged FLAG]...
;;
;; Collects the cases (case files, of which `pool' lines come from the
;; corpus extractor, and random ones), has the expander expand all their
;; forms (PROGRAM ARG... --compact FILE, one output line per form; a file
;; that fails is split until the failing forms are alone), splits the
;; cases over N worker Emacs processes (pcxc-check.el), watches them (a
;; case that makes no progress for SECONDS is skipped as a time-out and
;; its worker restarted after it), then reports checked / skipped /
;; failed per kind, the first failures in detail, and for a failing random
;; case a smaller form that still fails.  Exit status 0 only if nothing
;; failed and no kind skipped more than P percent of its cases.  The seed
;; of the random cases is --seed, else $PCXC_SEED, else 1.

(require 'pcxc-lib)
(require 'pcxc-check)
(require 'pcxc-gen)

(defvar pcxc-dir (file-name-directory (or load-file-name buffer-file-name))
  "The directory of the harness sources.")

(defvar pcxc-elc-dir nil
  "The directory of the byte-compiled harness, used by the workers.")

(defvar pcxc-opts nil "The command-line options, a plist.")

(defconst pcxc-no-native-eval
  "(setq native-comp-deferred-compilation nil comp-enable-subr-trampolines nil)"
  "Run first in workers: the native compiler must not start on harness files.")

(defun pcxc-opt (key &optional default)
  "The option KEY, or DEFAULT."
  (if (plist-member pcxc-opts key) (plist-get pcxc-opts key) default))

(defconst pcxc-option-table
  '(("--expander" :expander) ("--expander-arg" :expander-args list)
    ("--workdir" :workdir) ("--jobs" :jobs number) ("--cases" :cases list)
    ("--random" :random number) ("--seed" :seed number)
    ("--timeout" :timeout number) ("--max-skip-percent" :max-skip number)
    ("--show" :show number) ("--chunk" :chunk number)
    ("--skip-flagged" :skip-flagged list) ("--shrink" :shrink number)
    ("--gaps" :gaps list))
  "Options: name, key, and how values accumulate or convert.")

(defun pcxc-parse-args (args)
  "The options plist of the command-line ARGS."
  (let ((opts '()))
    (while args
      (let* ((arg (pop args))
             (eq-pos (string-match "=" arg))
             (name (if eq-pos (substring arg 0 eq-pos) arg))
             (spec (or (assoc name pcxc-option-table)
                       (error "Unknown option %s" arg)))
             (value (if eq-pos (substring arg (1+ eq-pos)) (pop args))))
        (pcase (nth 2 spec)
          ('list (setq opts (plist-put opts (nth 1 spec)
                                       (append (plist-get opts (nth 1 spec))
                                               (list value)))))
          ('number (setq opts (plist-put opts (nth 1 spec)
                                         (string-to-number value))))
          (_ (setq opts (plist-put opts (nth 1 spec) value))))))
    opts))

;;;; Processes

(defconst pcxc-worker-memory-kb 3000000
  "Address space a worker may use: a case that allocates without end
must end its worker quickly instead of exhausting the machine.")

(defun pcxc--start (name program args out err &optional env limit-kb)
  "Start PROGRAM with ARGS, stdout to file OUT, stderr to ERR, no stdin.
ENV is a list of extra VAR=VALUE environment entries; LIMIT-KB limits the
address space."
  (let ((process-connection-type nil)
        (process-environment (append env process-environment)))
    (make-process
     :name name :noquery t :buffer nil :sentinel #'ignore
     :command (append (list "sh" "-c"
                            (concat (if limit-kb (format "ulimit -v %d; " limit-kb) "")
                                    "out=$1 err=$2; shift 2; "
                                    "exec \"$@\" >\"$out\" 2>>\"$err\" </dev/null")
                            "sh" out err program)
                      args))))

(defun pcxc--wait-any (procs)
  "Wait a little for any of PROCS to change."
  (ignore procs)
  (accept-process-output nil 0.05))

(defun pcxc--tail (file n)
  "The last N characters of FILE, or \"\"."
  (if (file-exists-p file)
      (let ((s (string-trim (pcxc-file-string file))))
        (if (> (length s) n) (concat "..." (substring s (- n))) s))
    ""))

;;;; Running the expander

(defvar pcxc--file-counter 0 "Numbers files written to the work directory.")

(defun pcxc--work-file (stem ext)
  "A new file name in the work directory."
  (setq pcxc--file-counter (1+ pcxc--file-counter))
  (expand-file-name (format "%s-%d.%s" stem pcxc--file-counter ext)
                    (pcxc-opt :workdir)))

(defun pcxc--write-expander-input (entries)
  "Write ENTRIES, each (PRELUDE . FORM), one form per line to a new file.
Returns (FILE . LINES): LINES are the line numbers (from 0, among the
forms) of each entry's FORM; the PRELUDE forms come just before it."
  (let ((file (pcxc--work-file "expand" "el"))
        (lines '()) (n 0) (texts '()))
    (dolist (e entries)
      (dolist (f (append (car e) (list (cdr e))))
        (push (pcxc-print (pcxc-copy f)) texts)
        (setq n (1+ n)))
      (push (1- n) lines))
    (pcxc-write-file file (concat ";; -*- lexical-binding: t -*-\n"
                                  (mapconcat #'identity (nreverse texts) "\n")
                                  "\n"))
    (cons file (nreverse lines))))

(defun pcxc--start-expander (indices forms requires)
  "Start the expander on the FORMS at INDICES; return the running job.
FORMS holds (PRELUDE . FORM) entries.  REQUIRES (a vector like FORMS)
lists features a reference expander built on Emacs needs to expand each
form; they are passed in PCXC_REQUIRE."
  (let* ((input (pcxc--write-expander-input
                 (mapcar (lambda (i) (aref forms i)) indices)))
         (file (car input))
         (out (concat file ".out"))
         (err (concat file ".err"))
         (features (delete-dups (apply #'append (mapcar (lambda (i) (aref requires i))
                                                        indices)))))
    (list :indices indices :file file :out out :err err :started (float-time)
          :lines (cdr input)
          :proc (pcxc--start "expander" (pcxc-opt :expander)
                             (append (pcxc-opt :expander-args)
                                     (list "--compact" file))
                             out err
                             (list (concat "PCXC_REQUIRE="
                                           (mapconcat #'symbol-name features " ")))))))

(defun pcxc--parse-expansions (job)
  "The expansions of the job's forms the finished expander JOB printed.
Nil if the output is unusable (failure, wrong number of lines, unreadable)."
  (let ((proc (plist-get job :proc))
        (wanted (plist-get job :lines)))
    (when (and (eq (process-status proc) 'exit)
               (= (process-exit-status proc) 0))
      (let ((lines (split-string (pcxc-file-string (plist-get job :out)) "\n")))
        (when (equal (car (last lines)) "") (setq lines (butlast lines)))
        (when (= (length lines) (1+ (car (last wanted))))
          (condition-case nil
              (mapcar (lambda (i) (pcxc-read-whole (nth i lines))) wanted)
            (error nil)))))))

(defun pcxc--expander-failure (job)
  "Why the expander JOB on a single form failed, for the report."
  (let ((proc (plist-get job :proc)))
    (format "%s %s%s: %s"
            (if (eq (process-status proc) 'exit) "exit" "killed by signal")
            (process-exit-status proc)
            (if (plist-get job :timed-out) " (timed out)" "")
            (let ((err (pcxc--tail (plist-get job :err) 600)))
              (if (string-empty-p err)
                  (concat "output " (pcxc--tail (plist-get job :out) 300))
                err)))))

(defun pcxc--finish-expander (job exps errs)
  "Store the results of the finished expander JOB in vectors EXPS and ERRS.
Returns the index lists still to expand: both halves of a failed chunk."
  (let* ((indices (plist-get job :indices))
         (parsed (pcxc--parse-expansions job)))
    (cond
     (parsed (cl-mapc (lambda (i e) (aset exps i e)) indices parsed) nil)
     ((cdr indices)
      (let ((half (/ (length indices) 2)))
        (list (seq-take indices half) (nthcdr half indices))))
     (t (aset errs (car indices) (pcxc--expander-failure job)) nil))))

(defun pcxc--expander-overdue-p (job)
  "Non-nil if the expander JOB has run too long; it is then killed."
  (when (> (- (float-time) (plist-get job :started))
           (+ 60 (* 0.2 (length (plist-get job :indices)))))
    (delete-process (plist-get job :proc))
    (plist-put job :timed-out t)
    t))

(defun pcxc-expand (forms alone &optional requires)
  "Expand the vector FORMS, of (PRELUDE . FORM) entries, with the expander.
ALONE is a list of indices to expand one per file (forms expected to be
rejected, so that they cannot take other forms down with them).
REQUIRES is a vector of feature lists, see `pcxc--start-expander'.
Returns (EXPANSIONS . ERRORS), two vectors: the expansion of each form, or
the expander's complaint about it."
  (let* ((n (length forms))
         (exps (make-vector n nil)) (errs (make-vector n nil))
         (chunk (pcxc-opt :chunk 400))
         (rest (cl-loop for i below n unless (memq i alone) collect i))
         (queue (append (mapcar #'list alone)
                        (cl-loop while rest
                                 collect (prog1 (seq-take rest chunk)
                                           (setq rest (nthcdr chunk rest))))))
         (requires (or requires (make-vector n nil)))
         (running '()))
    (while (or queue running)
      (while (and queue (< (length running) (pcxc-opt :jobs 2)))
        (push (pcxc--start-expander (pop queue) forms requires) running))
      (pcxc--wait-any running)
      (dolist (job running)
        (when (or (not (process-live-p (plist-get job :proc)))
                  (pcxc--expander-overdue-p job))
          (setq running (delq job running))
          (setq queue (append (pcxc--finish-expander job exps errs) queue)))))
    (cons exps errs)))

;;;; Running the workers

(defun pcxc--job-entry (case n exp err)
  "What a worker needs of CASE number N with expansion EXP or error ERR."
  (list :n n :id (plist-get case :id) :flags (plist-get case :flags)
        :requires (plist-get case :requires) :gap (plist-get case :gap)
        :form (plist-get case :form) :exp exp :experr err
        :expected (plist-get case :expected)
        :wrapper (plist-get case :wrapper) :inputs (plist-get case :inputs)))

(defun pcxc--write-job (entries)
  "Write the worker job ENTRIES to a new file and return its name."
  (let ((file (pcxc--work-file "job" "el")))
    (pcxc-write-file file (mapconcat #'pcxc-print entries "\n"))
    file))

(defun pcxc--start-worker (job start)
  "Start a worker on JOB (a plist) from its case number START."
  (let* ((out (plist-get job :out))
         (log (concat out ".log")))
    (plist-put job :start start)
    (plist-put job :seen (pcxc--result-count out))
    (plist-put job :progress-at (float-time))
    (plist-put job :proc
               (pcxc--start "worker"
                            (expand-file-name invocation-name invocation-directory)
                            (list "-Q" "--batch" "--eval" pcxc-no-native-eval
                                  "-L" pcxc-elc-dir "-L" pcxc-dir
                                  "-l" "pcxc-check"
                                  "-f" "pcxc-worker-main" (plist-get job :file)
                                  out (number-to-string start))
                            "/dev/null" log nil pcxc-worker-memory-kb))
    job))

(defun pcxc--result-count (file)
  "Number of complete result lines in FILE."
  (if (file-exists-p file)
      (with-temp-buffer
        (insert-file-contents-literally file)
        (count-lines (point-min) (point-max)))
    0))

(defun pcxc--worker-stuck (job)
  "Handle a worker whose current case never ends or that died early.
The case is recorded (time-out: skip; crash: fail) and a new worker
starts after it.  Returns nil when the job is complete."
  (let* ((done (pcxc--result-count (plist-get job :out)))
         (total (length (plist-get job :entries)))
         (alive (process-live-p (plist-get job :proc))))
    (when alive (delete-process (plist-get job :proc)))
    (when (< done total)
      (let ((entry (nth done (plist-get job :entries))))
        (pcxc-append-file
         (plist-get job :out)
         (concat (pcxc-print
                  (if alive
                      (pcxc--result entry 'skip :reason
                                    (format "no result within %s s"
                                            (pcxc-opt :timeout 30)))
                    (pcxc--result entry 'fail :detail
                                  (concat "worker died: "
                                          (pcxc--tail (concat (plist-get job :out) ".log")
                                                      400)))))
                 "\n")))
      (when (< (1+ done) total)
        (pcxc--start-worker job (1+ done))))))

(defun pcxc--poll-worker (job)
  "Check on worker JOB; return non-nil while it is still working."
  (let ((seen (pcxc--result-count (plist-get job :out)))
        (total (length (plist-get job :entries))))
    (when (> seen (plist-get job :seen))
      (plist-put job :seen seen)
      (plist-put job :progress-at (float-time)))
    (cond
     ((>= seen total) (when (process-live-p (plist-get job :proc))
                        (accept-process-output (plist-get job :proc) 0.05))
      (process-live-p (plist-get job :proc)))
     ((not (process-live-p (plist-get job :proc))) (pcxc--worker-stuck job))
     ((> (- (float-time) (plist-get job :progress-at)) (pcxc-opt :timeout 30))
      (pcxc--worker-stuck job))
     (t t))))

(defun pcxc-run-workers (entries)
  "Check all job ENTRIES in worker processes; return the result objects."
  (let* ((n (max 1 (min (pcxc-opt :jobs 2) (length entries))))
         (jobs (cl-loop for w below n
                        for mine = (cl-loop for e in entries for i from 0
                                            when (= (mod i n) w) collect e)
                        collect (list :entries mine :file (pcxc--write-job mine)
                                      :out (pcxc--work-file "results" "el")))))
    (dolist (job jobs) (pcxc--start-worker job 0))
    (let ((running jobs))
      (while running
        (pcxc--wait-any running)
        (setq running (seq-filter #'pcxc--poll-worker running))))
    (apply #'append (mapcar (lambda (j) (pcxc-read-objects (plist-get j :out)))
                            jobs))))

;;;; Collecting cases

(defvar pcxc--loaded-for-cases nil
  "Features this process loaded because some case's form needed them.")

(defun pcxc--features-needed (case)
  "The features CASE's form needs to expand in Emacs, if it names them.
They are needed if the form does not expand without them - or if they
were loaded here for an earlier case, since then this process cannot
tell any more."
  (let ((features (pcxc-case-features case)))
    (when (and features
               (or (cl-intersection features pcxc--loaded-for-cases)
                   (not (pcxc--emacs-expands-p (plist-get case :form)))))
      (pcxc-require-quietly features)
      (setq pcxc--loaded-for-cases (append features pcxc--loaded-for-cases))
      features)))

(defun pcxc--prepare (case index)
  "CASE from a case file made ready to run.
A pcase whose subject is a variable keeps a variable there, as written
\(its expansion reads the variable itself, binding no temporary for it);
for another subject INDEX alternates the kinds: a variable, or an
expression as written."
  (if (memq 'pool (plist-get case :flags))
      (let* ((subject (nth 1 (plist-get case :form)))
             (variable (and (symbolp subject) subject (not (eq subject t))
                            (not (keywordp subject))))
             (c (pcxc-prepare-pool case (or variable (cl-evenp index)))))
        (append (list :requires (pcxc--features-needed c)) c))
    (pcxc-prepare-plain case)))

(defun pcxc--read-gaps ()
  "The known gaps of the expander, from the --gaps files: an alist of
source files (as corpus case ids start) and why their forms may not
expand yet.  Lines are FILE TAB REASON; # starts a comment."
  (let ((gaps '()))
    (dolist (file (pcxc-opt :gaps))
      (dolist (line (split-string (pcxc-file-string file) "\n" t))
        (unless (string-prefix-p "#" line)
          (let ((tab (string-search "\t" line)))
            (unless tab (error "%s: no TAB in %S" file line))
            (push (cons (substring line 0 tab) (substring line (1+ tab))) gaps)))))
    gaps))

(defun pcxc--gap (case gaps)
  "Why CASE's form may not expand yet (see `pcxc--read-gaps'), or nil."
  (let ((id (plist-get case :id)))
    (cdr (cl-find-if (lambda (g) (string-prefix-p (concat (car g) ":") id)) gaps))))

(defun pcxc-collect-cases ()
  "All cases of this run, ready to run, as a list."
  (let ((cases '()) (index 0) (gaps (pcxc--read-gaps)))
    (dolist (file (pcxc-opt :cases))
      (dolist (c (pcxc-read-cases file))
        (push (append (list :kind (file-name-nondirectory file)
                            :gap (pcxc--gap c gaps))
                      (pcxc--prepare c index))
              cases)
        (setq index (1+ index))))
    (let ((seed (pcxc-opt :seed)))
      (dotimes (i (pcxc-opt :random 0))
        (push (pcxc-gen-case seed i) cases)))
    (nreverse cases)))

(defun pcxc--rejection-expected-p (case)
  "Non-nil if CASE expects the expander to reject its form."
  (string-prefix-p "EXPAND-ERROR" (plist-get case :expected)))

;;;; Shrinking failing random cases

(defun pcxc--failing-input (case result)
  "The input tuples of CASE to shrink with: the first that failed in RESULT."
  (let ((count (plist-get result :inputs)))
    (if (and count (> count 0))
        (list (nth (1- count) (plist-get case :inputs)))
      (plist-get case :inputs))))

(defun pcxc--fails-p (case form exp err inputs)
  "Non-nil if CASE fails on INPUTS with FORM, expanded to EXP or rejected (ERR)."
  (let ((c (plist-put (plist-put (copy-sequence case) :form form) :inputs inputs)))
    (eq 'fail (plist-get (pcxc-check-case (pcxc--job-entry c 0 exp err))
                         :status))))

(defun pcxc--emacs-expands-p (form)
  "Non-nil if Emacs itself can expand FORM."
  (condition-case nil
      (let ((inhibit-message t)) (macroexpand-all form) t)
    (error nil)))

(defun pcxc--shrink-step (case form inputs)
  "A smaller form than FORM on which CASE still fails, or nil."
  (let* ((cands (vconcat (seq-filter #'pcxc--emacs-expands-p
                                     (pcxc-shrink-candidates form))))
         (expanded (pcxc-expand (vconcat (mapcar (lambda (f) (cons nil f)) cands)) nil))
         (found nil))
    (cl-loop for i below (length cands)
             until found
             when (pcxc--fails-p case (aref cands i) (aref (car expanded) i)
                                 (aref (cdr expanded) i) inputs)
             do (setq found (aref cands i)))
    found))

(defun pcxc-shrink (case result)
  "The smallest form found, by greedy steps, on which CASE still fails.
Returns (FORM INPUT)."
  (let ((form (plist-get case :form))
        (inputs (pcxc--failing-input case result))
        (steps 0) next)
    (while (and (< steps 200) (setq next (pcxc--shrink-step case form inputs)))
      (setq form next steps (1+ steps)))
    (list form (car inputs))))

;;;; Report

(defun pcxc--kind-stats (results cases)
  "Per-kind counters over RESULTS (matched to CASES by :n)."
  (let ((stats '()))
    (dolist (r results)
      (let* ((kind (plist-get (aref cases (plist-get r :n)) :kind))
             (cell (or (assoc kind stats)
                       (car (push (list kind 0 0 0 0 0) stats))))
             (status (plist-get r :status)))
        (cl-incf (nth (pcase status ('pass 1) ('skip 2) (_ 3)) cell))
        (cl-incf (nth 4 cell) (or (plist-get r :inputs) 0))
        (when (> (or (plist-get r :distinct) 0) 1) (cl-incf (nth 5 cell)))))
    (sort stats (lambda (a b) (string< (format "%s" (car a)) (format "%s" (car b)))))))

(defun pcxc--print-stats (stats)
  "Print one summary line per kind; return non-nil if any kind fails."
  (let ((bad nil))
    (dolist (s stats)
      (pcase-let* ((`(,kind ,pass ,skip ,fail ,evals ,varied) s)
                   (total (+ pass skip fail))
                   (pct (if (> total 0) (/ (* 100.0 skip) total) 0.0)))
        (princ (format "conformance: %s: %d cases, %d checked, %d skipped (%.1f%%), %d failed; %d evaluations, %d cases with more than one outcome\n"
                       kind total (+ pass fail) skip pct fail evals varied))
        (when (or (> fail 0) (> pct (pcxc-opt :max-skip 2))) (setq bad t))))
    bad))

(defun pcxc--print-details (results cases)
  "Print the first failures and the skip reasons."
  (let ((shown 0) (reasons '()))
    (dolist (r results)
      (pcase (plist-get r :status)
        ('fail
         (when (< shown (pcxc-opt :show 10))
           (setq shown (1+ shown))
           (let ((c (aref cases (plist-get r :n))))
             (princ (format "FAIL %s  %s\n  form: %s\n  %s\n" (plist-get r :id)
                            (plist-get c :notes) (pcxc-show (plist-get c :form) 600)
                            (plist-get r :detail))))))
        ('skip (let ((cell (assoc (plist-get r :reason) reasons)))
                 (if cell (push (plist-get r :id) (cdr cell))
                   (push (list (plist-get r :reason) (plist-get r :id)) reasons))))))
    (dolist (cell (nreverse reasons))
      (princ (format "skipped %d: %s\n" (length (cdr cell)) (car cell)))
      (let ((ids (sort (delq nil (copy-sequence (cdr cell))) #'string<)))
        (when (<= (length ids) 20)
          (dolist (id ids) (princ (format "  %s\n" id))))))))

(defun pcxc--print-shrunk (results cases)
  "Shrink and print the first failing random cases."
  (let ((budget (pcxc-opt :shrink 3)))
    (dolist (r results)
      (let ((c (aref cases (plist-get r :n))))
        (when (and (> budget 0) (eq (plist-get r :status) 'fail)
                   (plist-get c :random))
          (setq budget (1- budget))
          (pcase-let ((`(,form ,input) (pcxc-shrink c r)))
            (princ (format "MINIMAL %s (%s): %s\n  on input %s\n"
                           (plist-get r :id) (plist-get c :notes)
                           (pcxc-show form 2000) (pcxc-show input)))))))))

;;;; Entry

(defconst pcxc-harness-files
  '("pcxc-lib" "pcxc-check" "pcxc-gen" "pcxc-extract" "pcxc-standin")
  "The harness libraries, compiled once per run.")

(defun pcxc--compile-harness ()
  "Byte-compile the harness into the work directory and load it from there.
Interpreted, the harness itself would dominate the evaluation time."
  (require 'bytecomp)
  (let* ((dir (expand-file-name "elc" (pcxc-opt :workdir)))
         (byte-compile-dest-file-function
          (lambda (f) (expand-file-name (concat (file-name-base f) ".elc") dir))))
    (make-directory dir t)
    (dolist (name pcxc-harness-files)
      (let ((inhibit-message t))
        (unless (byte-compile-file (expand-file-name (concat name ".el") pcxc-dir))
          (error "Cannot compile %s" name)))
      (load (expand-file-name (concat name ".elc") dir) nil t))
    (setq pcxc-elc-dir dir)))

(defun pcxc--check-options ()
  "Validate the options and prepare a fresh run directory.
Everything goes to DIR/pcxc-run (DIR from --workdir, default a new
temporary directory), which is emptied first and removed after a run
without failures."
  (unless (pcxc-opt :expander) (error "--expander is required"))
  (setq pcxc-opts (plist-put pcxc-opts :expander
                             (expand-file-name (pcxc-opt :expander))))
  (let ((run (expand-file-name "pcxc-run" (or (pcxc-opt :workdir)
                                              (make-temp-file "pcxc" t)))))
    (when (file-directory-p run) (delete-directory run t))
    (make-directory run t)
    (setq pcxc-opts (plist-put pcxc-opts :workdir (file-name-as-directory run))))
  (unless (pcxc-opt :seed)
    (let ((env (getenv "PCXC_SEED")))
      (setq pcxc-opts (plist-put pcxc-opts :seed
                                 (if (and env (string-match-p "\\`[0-9]+\\'" env))
                                     (string-to-number env)
                                   1))))))

(defun pcxc--flag-skip (case)
  "The reason to skip CASE because of a --skip-flagged flag, or nil."
  (let ((flag (cl-find-if (lambda (f) (member (symbol-name f) (pcxc-opt :skip-flagged)))
                          (plist-get case :flags))))
    (and flag (format "flagged %s, skipped on request" flag))))

(defun pcxc--expand-cases (cases)
  "Run the expander on the vector CASES: (EXPANSIONS . ERRORS) vectors."
  (pcxc-expand
   (vconcat (mapcar (lambda (c) (cons (plist-get c :prelude) (plist-get c :form)))
                    cases))
   (cl-loop for i below (length cases)
            when (pcxc--rejection-expected-p (aref cases i)) collect i)
   (vconcat (mapcar (lambda (c) (plist-get c :requires)) cases))))

(defun pcxc--check-all (cases)
  "Expand and check the vector CASES; return the results and the timings.
Returns (RESULTS EXPAND-SECONDS CHECK-SECONDS)."
  (let* ((wanted (cl-loop for i below (length cases)
                          unless (pcxc--flag-skip (aref cases i)) collect i))
         (sub (vconcat (mapcar (lambda (i) (aref cases i)) wanted)))
         (t0 (float-time))
         (expanded (pcxc--expand-cases sub))
         (t1 (float-time))
         (entries (cl-loop for i in wanted for k from 0
                           collect (pcxc--job-entry (aref cases i) i
                                                    (aref (car expanded) k)
                                                    (aref (cdr expanded) k))))
         (results (append (pcxc-run-workers entries)
                          (cl-loop for i below (length cases)
                                   for why = (pcxc--flag-skip (aref cases i))
                                   when why collect
                                   (list :n i :id (plist-get (aref cases i) :id)
                                         :status 'skip :reason why)))))
    (list results (- t1 t0) (- (float-time) t1))))

(defun pcxc--report (cases results)
  "Print the report of RESULTS for the vector CASES; non-nil if the run failed."
  (pcxc--print-details results cases)
  (pcxc--print-shrunk results cases)
  (let ((bad (pcxc--print-stats (pcxc--kind-stats results cases))))
    (when (< (length results) (length cases))
      (princ (format "conformance: only %d results for %d cases\n"
                     (length results) (length cases)))
      (setq bad t))
    bad))

(defun pcxc-main ()
  "Command-line entry; see the commentary.  Exits with the status."
  (setq pcxc-opts (pcxc-parse-args command-line-args-left)
        command-line-args-left nil)
  (pcxc--check-options)
  (pcxc--compile-harness)
  (pcxc-setup)
  (let* ((t0 (float-time))
         (cases (vconcat (pcxc-collect-cases)))
         (checked (pcxc--check-all cases))
         (bad (pcxc--report cases (car checked))))
    (princ (format "conformance: expander %.1f s, evaluation %.1f s, total %.1f s\n"
                   (nth 1 checked) (nth 2 checked) (- (float-time) t0)))
    (if bad
        (princ (format "conformance: files of this run kept in %s\n"
                       (pcxc-opt :workdir)))
      (delete-directory (pcxc-opt :workdir) t))
    (kill-emacs (if bad 1 0))))

;;; pcxc-run.el ends here
