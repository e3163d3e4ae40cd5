;;; walk-table.el --- pcexpand's code walker against Emacs's own macros  -*- lexical-binding: t -*-
;; Usage: emacs -Q --batch -l walk-table.el PCEXPAND INVENTORY
;;
;; Every special form of this Emacs and every macro defined in subr.el,
;; byte-run.el, subr-x.el, gv.el, cl-macs.el, cl-generic.el and ert.el
;; must have a row in INVENTORY (testdata/walk/forms.eld), and every row
;; must name one of them: a new macro in Emacs makes this test fail until
;; it is looked at.  A row is (NAME SAMPLE EXTRA...): SAMPLE is a call in
;; which each symbol `@' marks a probe position (the symbol `auto' builds
;; the call from the macro's argument list: a probe per argument, two for
;; &rest); EXTRA, a list of probe indexes (from 0, in reading order) that
;; pcexpand may walk although Emacs does not, each with its reason in a
;; comment of the inventory.
;;
;; For each sample, Emacs's answer: the byte compiler compiles the sample
;; with each probe a macro call (pcx-wt-probe N) that records N when it is
;; expanded, so the recorded probes are the code positions (evaluated or
;; compiled).  pcexpand's answer: it expands the sample with each probe a
;; form (pcase N (_ N)); the probes whose pcase form is left in its output
;; are the positions it did not walk.  The two sets must be equal, except
;; EXTRA.  Prints one line per mismatch; exit status 1 on failure.

(require 'cl-lib)
(require 'cl-macs)
(require 'cl-generic)
(require 'gv)
(require 'subr-x)
(require 'ert)

(defconst pcx-wt-files '("subr" "byte-run" "subr-x" "gv" "cl-macs" "cl-generic" "ert"))

(defun pcx-wt-emacs-names ()
  "The special forms and the macros of `pcx-wt-files', sorted."
  (let (out)
    (mapatoms
     (lambda (s)
       (when (fboundp s)
         (let ((f (symbol-file s 'defun)))
           (when (or (special-form-p s)
                     (and f (macrop s)
                          (member (file-name-base f) pcx-wt-files)))
             (push s out))))))
    (sort out (lambda (a b) (string< (symbol-name a) (symbol-name b))))))

(defun pcx-wt-read (file)
  (with-temp-buffer
    (insert-file-contents file)
    (let (rows)
      (condition-case nil (while t (push (read (current-buffer)) rows))
        (end-of-file nil))
      (nreverse rows))))

(defun pcx-wt-auto (name)
  "A call of macro NAME with a probe for each argument."
  (let ((args (help-function-arglist name t)) (out nil) (mode nil))
    (dolist (a (if (listp args) args nil))
      (cond ((memq a '(&optional)) (setq mode 'opt))
            ((memq a '(&rest &body)) (setq mode 'rest))
            ((memq a '(&key &aux &environment &whole &allow-other-keys)) (setq mode 'stop))
            ((eq mode 'stop))
            ((eq mode 'rest) (push '@ out) (push '@ out))
            (t (push '@ out))))
    (cons name (nreverse out))))

(defun pcx-wt-number (sample make)
  "SAMPLE with its probes numbered from 0: (FORM . COUNT); MAKE gives a probe."
  (let ((n 0))
    (cl-labels ((walk (x)
                  (cond ((eq x '@) (prog1 (funcall make n) (setq n (1+ n))))
                        ((consp x) (cons (walk (car x)) (walk (cdr x))))
                        ((and (vectorp x) (> (length x) 0)) (apply #'vector (mapcar #'walk x)))
                        (t x))))
      (let ((form (walk sample))) (cons form n)))))

(defvar pcx-wt-seen nil "Probes the byte compiler expanded.")
(defmacro pcx-wt-probe (n) (push n pcx-wt-seen) nil)

(defun pcx-wt-emacs-code (form)
  "The probes of FORM that the byte compiler expands, or `error'."
  (let ((file (make-temp-file "pcx-wt" nil ".el"))
        (byte-compile-warnings nil))
    (unwind-protect
        (progn
          (with-temp-file file
            (insert ";;; -*- lexical-binding: t -*-\n")
            (let ((print-escape-newlines t)) (prin1 form (current-buffer)))
            (insert "\n"))
          (setq pcx-wt-seen nil)
          (let ((ok (let ((inhibit-message t)) (ignore-errors (byte-compile-file file)))))
            (if ok (delete-dups (sort pcx-wt-seen #'<)) 'error)))
      (delete-file file)
      (ignore-errors (delete-file (concat file "c"))))))

(defun pcx-wt-left (form)
  "The numbers N of every (pcase N ...) left anywhere in FORM."
  (let (out)
    (cl-labels ((walk (x)
                  (cond ((consp x)
                         (when (and (eq (car x) 'pcase) (consp (cdr x)) (integerp (cadr x)))
                           (push (cadr x) out))
                         (while (consp x) (walk (car x)) (setq x (cdr x))))
                        ((vectorp x) (mapc #'walk x)))))
      (walk form))
    out))

(defun pcx-wt-pcexpand (program forms)
  "Each of FORMS expanded by PROGRAM (--compact, one line each)."
  (with-temp-buffer
    (let ((print-escape-newlines t))
      (dolist (f forms) (prin1 f (current-buffer)) (insert "\n")))
    (let ((status (call-process-region (point-min) (point-max) program t '(t nil) nil
                                       "--compact" "--keep-going" "-q" "--stdin-filepath=probe.el" "-")))
      (unless (memq status '(0 2)) (error "pcexpand exited %s" status)))
    (goto-char (point-min))
    (let (out)
      (condition-case nil (while t (push (read (current-buffer)) out))
        (end-of-file nil))
      (nreverse out))))

(defun pcx-wt-main (program inventory)
  (let* ((names (pcx-wt-emacs-names))
         (rows (pcx-wt-read inventory))
         (failures 0) (checked 0)
         (row-names (mapcar #'car rows)))
    (dolist (n names)
      (unless (memq n row-names)
        (message "%s: not in the inventory (a new special form or macro of Emacs)" n)
        (cl-incf failures)))
    (dolist (r rows)
      (unless (memq (car r) names)
        (message "%s: in the inventory but not a special form or macro here" (car r))
        (cl-incf failures)))
    (let* ((rows (seq-filter (lambda (r) (memq (car r) names)) rows))
           (samples (mapcar (lambda (r) (if (eq (nth 1 r) 'auto) (pcx-wt-auto (car r)) (nth 1 r)))
                            rows))
           (base 0)
           (ours (pcx-wt-pcexpand
                  program
                  (mapcar (lambda (s)
                            (let ((b base))
                              (let ((f (pcx-wt-number s (lambda (i) `(pcase ,(+ b i) (_ ,(+ b i)))))))
                                (setq base (+ base (cdr f)))
                                (car f))))
                          samples))))
      (setq base 0)
      (cl-loop
       for r in rows for s in samples for out in ours do
       (let* ((num (pcx-wt-number s (lambda (i) `(pcx-wt-probe ,i))))
              (count (cdr num))
              (emacs (pcx-wt-emacs-code (car num)))
              (left (mapcar (lambda (n) (- n base)) (pcx-wt-left out)))
              (walked (cl-loop for i below count unless (memq i left) collect i))
              (extra (nth 2 r)))
         (setq base (+ base count))
         (cl-incf checked)
         (cond
          ((eq emacs 'error)
           (message "%s: the sample %S does not compile" (car r) s)
           (cl-incf failures))
          (t
           (let ((missed (cl-set-difference emacs walked))
                 (over (cl-set-difference (cl-set-difference walked emacs) extra)))
             (when (or missed over)
               (message "%s: sample %S: Emacs's code positions %S, pcexpand walks %S%s"
                        (car r) s emacs walked
                        (if extra (format " (extra allowed: %S)" extra) ""))
               (cl-incf failures))))))))
    (message "walk table: %d forms checked against Emacs %s, %d failure(s)"
             checked emacs-version failures)
    (kill-emacs (if (> failures 0) 1 0))))

(pcx-wt-main (expand-file-name (nth 0 command-line-args-left))
             (expand-file-name (nth 1 command-line-args-left)))
