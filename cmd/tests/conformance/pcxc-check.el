;;; pcxc-check.el --- conformance harness: checking one case  -*- lexical-binding: t -*-

;; The worker side of the harness.  A worker process reads a job file
;; (one prepared case per object, with the expander's result attached),
;; checks each case with `pcxc-check-case' and appends one result object
;; per case to its result file, so that the driver can see progress and
;; resume after a case that never finishes.
;;
;; Run as: emacs -Q --batch -L DIR -l pcxc-check -f pcxc-worker-main JOB OUT [START]

(require 'pcxc-lib)
(require 'pcxc-gen)                     ; the functions generated forms call

(defun pcxc--defines-special-p (code)
  "Non-nil if CODE (macro-expanded) contains a `defvar' or `defconst'
form with a value.  Such a form makes its variable special everywhere,
which changes how the other side's code binds it, so original and
expansion could not be compared fairly.  A `defvar' without a value
only declares the variable special where it stands; quoted data is not
code."
  (let ((stack (list code)) (found nil))
    (while (and stack (not found))
      (let ((x (pop stack)))
        (when (and (consp x) (not (eq (car x) 'quote)))
          (when (and (memq (car x) '(defvar defconst)) (consp (cdr-safe (cdr x))))
            (setq found t))
          (while (consp x)
            (push (car x) stack)
            (setq x (cdr x))))))
    found))

(defun pcxc--outcome-text (run)
  "Report text for RUN = (OUTCOME LOG)."
  (if (cadr run)
      (format "%s  calls %s" (pcxc-show (car run)) (pcxc-show (cadr run) 400))
    (pcxc-show (car run))))

(defun pcxc--mismatch-text (tuple o e)
  "Report text for input TUPLE where Emacs gave run O and the expansion E."
  (format "input %s\n    Emacs:     %s\n    expansion: %s"
          (pcxc-show tuple 200) (pcxc--outcome-text o) (pcxc--outcome-text e)))

(defun pcxc--first-words (message)
  "The start of MESSAGE, enough to group similar reasons."
  (if (> (length message) 60) (substring message 0 60) message))

(defun pcxc--env (case codes)
  "Stubs and rebound globals for running CASE's macro-expanded CODES.
Only `pool' cases (forms taken from elsewhere) get stubs; the other cases
are written for the harness and call what they mean to call."
  (cons (and (memq 'pool (plist-get case :flags))
             (pcxc-make-stubs (pcxc-stub-set codes)))
        (pcxc-global-set codes)))

(defun pcxc--compare-runs (orig exp inputs env)
  "Run functions ORIG and EXP on every input; stop at the first difference.
Returns (COUNT DISTINCT DETAIL): inputs checked, how many different
outcomes the original had, and the description of a difference or nil."
  (let ((count 0) (outcomes '()) (detail nil) (index 0))
    (while (and inputs (not detail))
      (let* ((tuple (pop inputs))
             (o (pcxc-run orig tuple index env))
             (e (pcxc-run exp tuple index env)))
        (setq count (1+ count) index (1+ index))
        (unless (member (car o) outcomes) (push (car o) outcomes))
        (pcxc--assert-harness-complete o)
        (unless (equal o e)
          (setq detail (pcxc--mismatch-text tuple o e)))))
    (list count (length outcomes) detail)))

(defun pcxc--assert-harness-complete (run)
  "Signal an error if RUN failed because a harness function is missing.
Both sides would fail alike, and the case would pass without testing."
  (pcase (car run)
    (`(err (void-function ,(and f (pred symbolp) (pred pcxc--harness-symbol-p))))
     (error "Harness function %s is not defined" f))))

(defun pcxc--result (case status &rest props)
  "The result object for CASE."
  (append (list :n (plist-get case :n) :id (plist-get case :id)
                :status status)
          props))

(defun pcxc--compile-sides (case)
  "Compile CASE's original and expansion: (ORIG EXP), each as `pcxc-compile'
returns, EXP being (expander-error STDERR) when the expander failed and
ORIG nil for `noorig' cases."
  (pcxc-require-quietly (plist-get case :requires))
  (let ((lexical (not (memq 'dyn (plist-get case :flags))))
        (wrapper (plist-get case :wrapper)))
    (list (unless (memq 'noorig (plist-get case :flags))
            (pcxc-compile wrapper (plist-get case :form) lexical))
          (if (plist-get case :experr)
              (list 'expander-error (plist-get case :experr))
            (pcxc-compile wrapper (plist-get case :exp) lexical)))))

(defun pcxc--check-same-compiled (case orig exp)
  "Check a differential CASE whose sides compiled as ORIG and EXP."
  (pcase (list (car orig) (car exp))
    ((and `(expand-error ,_) (guard (memq 'pool (plist-get case :flags))))
     (pcxc--result case 'skip :reason
                   (concat "Emacs cannot expand it here: "
                           (pcxc--first-words (cadr orig)))))
    (`(expand-error expander-error)
     (pcxc--result case 'pass :inputs 0 :distinct 1))
    (`(expand-error ok)
     (pcxc--result case 'fail :detail
                   (format "Emacs rejects the form (%s) but the expander accepted it"
                           (cadr orig))))
    ((and `(ok expander-error) (guard (plist-get case :gap)))
     (pcxc--result case 'skip :reason
                   (concat "not expandable yet: " (plist-get case :gap))))
    (`(ok expander-error)
     (pcxc--result case 'fail :detail
                   (format "expander failed: %s" (cadr exp))))
    (`(,_ expand-error)
     (pcxc--result case 'fail :detail
                   (format "Emacs cannot expand the expansion: %s" (cadr exp))))
    (_ (pcxc--check-same-run case orig exp))))

(defun pcxc--check-same-run (case orig exp)
  "Evaluate both sides of differential CASE on all its inputs."
  (let ((codes (list (nth 2 orig) (nth 2 exp))))
    (if (pcxc--defines-special-p (car codes))
        (pcxc--result case 'skip :reason "defines a special variable")
      (pcase-let ((`(,count ,distinct ,detail)
                   (pcxc--compare-runs (nth 1 orig) (nth 1 exp)
                                       (plist-get case :inputs)
                                       (pcxc--env case codes))))
        (if detail
            (pcxc--result case 'fail :inputs count :distinct distinct
                          :detail detail)
          (pcxc--result case 'pass :inputs count :distinct distinct))))))

(defun pcxc--outcome-matches-p (outcome expected)
  "Non-nil if OUTCOME (abstracted) is what EXPECTED (KIND . DATA) asks for."
  (pcase expected
    (`(value . ,v) (equal outcome (list 'ok (pcxc-abs v))))
    (`(error . ,(and s (pred symbolp)))
     (and (eq (car outcome) 'err) (eq (car-safe (cadr outcome)) s)))
    (`(error . ,e) (equal outcome (list 'err (pcxc-abs e))))))

(defun pcxc--expected-text (expected)
  "EXPECTED as it is written in a case file."
  (pcase expected
    (`(value . ,v) (pcxc-show v))
    (`(error . ,e) (concat "ERROR:" (pcxc-show e)))
    (`(expand-error . ,code)
     (if code (concat "EXPAND-ERROR:" code) "EXPAND-ERROR"))))

(defun pcxc--side-verdict (case side compiled expected)
  "Nil if SIDE (\"Emacs\" or \"expansion\") of CASE meets EXPECTED.
Otherwise the reason it does not.  COMPILED is what `pcxc--compile-sides'
returned for that side."
  (pcase (list (car compiled) (car expected))
    (`(expander-error expand-error)
     (let ((code (cdr expected)))
       (when (and code (not (string-match-p (regexp-quote (format "[%s]" code))
                                            (cadr compiled))))
         (format "%s: rejected, but without [%s]: %s" side code (cadr compiled)))))
    (`(expand-error expand-error) nil)
    (`(,(or 'expander-error 'expand-error) ,_)
     (format "%s: rejected (%s), expected %s" side (cadr compiled)
             (pcxc--expected-text expected)))
    (`(ok expand-error)
     (format "%s: accepted, expected %s" side (pcxc--expected-text expected)))
    (_ (let ((run (pcxc-run (nth 1 compiled) nil 0
                            (pcxc--env case (list (nth 2 compiled))))))
         (unless (pcxc--outcome-matches-p (car run) expected)
           (format "%s: %s, expected %s" side (pcxc-show (car run))
                   (pcxc--expected-text expected)))))))

(defun pcxc--check-expected (case orig exp expected)
  "Check CASE against EXPECTED; ORIG and EXP as from `pcxc--compile-sides'.
The expansion must give the expected result; so must Emacs itself,
unless the case is flagged `differs' (where pcexpand departs from Emacs
30.1 on purpose, pcase.md 9) or `noorig' (a form Emacs cannot run) -
that keeps the case file honest."
  (let* ((flags (plist-get case :flags))
         (problems (delq nil
                         (list (pcxc--side-verdict case "expansion" exp expected)
                               (and orig (not (memq 'differs flags))
                                    (pcxc--side-verdict case "Emacs" orig
                                                        expected))))))
    (if problems
        (pcxc--result case 'fail :inputs 1 :detail (string-join problems "\n    "))
      (pcxc--result case 'pass :inputs 1 :distinct 1))))

(defun pcxc-check-case (case)
  "Check the prepared CASE; the result object says pass, fail or skip."
  (setq pcxc-lambda-is-function (memq 'dyn (plist-get case :flags)))
  (condition-case err
      (pcase-let ((`(,orig ,exp) (pcxc--compile-sides case))
                  (expected (pcxc-parse-expected (plist-get case :expected))))
        (if (eq (car expected) 'same)
            (pcxc--check-same-compiled case orig exp)
          (pcxc--check-expected case orig exp expected)))
    (error (pcxc--result case 'fail :detail
                         (format "harness error: %S" err)))))

(defun pcxc-worker-main ()
  "Command-line entry of a worker: JOB-FILE RESULT-FILE [START-INDEX]."
  (let* ((job (pop command-line-args-left))
         (out (pop command-line-args-left))
         (start (string-to-number (or (pop command-line-args-left) "0"))))
    (pcxc-setup)
    (dolist (case (nthcdr start (pcxc-read-objects job)))
      (let* ((t0 (float-time))
             (result (pcxc-check-case case)))
        (pcxc-append-file out (concat (pcxc-print
                                       (append result
                                               (list :seconds (- (float-time) t0))))
                                      "\n"))))))

(provide 'pcxc-check)

;;; pcxc-check.el ends here
