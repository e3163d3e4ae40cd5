;;; pcxc-standin.el --- an expander built from Emacs's own macros  -*- lexical-binding: t -*-

;; Usage:
;;   emacs -Q --batch -L DIR -l pcxc-standin -f pcxc-standin-main \
;;         [--break=swap|twice] [--no-expand] --compact FILE
;;
;; Behaves like `pcexpand --compact FILE' as far as the conformance harness
;; needs: each top-level form of FILE is printed on one line with its
;; pcase-family forms replaced by what Emacs's own macros make of them in
;; the harness's reference Emacs; other macros are left for the evaluating
;; Emacs to expand, as with pcexpand.  Temporaries stay uninterned and are
;; printed with #N= labels so that they read back as the same symbols.  If any form cannot be expanded,
;; nothing is printed, a diagnostic goes to stderr and the exit status is 2.
;;
;; Features listed in the environment variable PCXC_REQUIRE are loaded
;; first (the harness sets it for forms that need a library's struct
;; definitions or pattern macros to expand).
;;
;; It exists to validate the harness itself: run as is it must produce no
;; mismatch.  --break=swap exchanges the first two clauses of every pcase
;; and pcase-exhaustive, --break=twice evaluates every non-symbol pcase
;; subject twice; the harness must report both.

(require 'pcxc-lib)
(require 'pcxc-extract)

(defun pcxc-standin--swap (form)
  "FORM with the first two clauses of each pcase (with two or more) swapped."
  (cond
   ((and (memq (car-safe form) '(pcase pcase-exhaustive))
         (consp (cdr form)) (consp (cddr form)) (consp (cdddr form)))
    (pcase-let ((`(,head ,subject ,c1 ,c2 . ,rest) form))
      (mapcar #'pcxc-standin--swap `(,head ,subject ,c2 ,c1 ,@rest))))
   ((proper-list-p form) (mapcar #'pcxc-standin--swap form))
   (t form)))

(defun pcxc-standin--twice (form)
  "FORM with each non-symbol pcase subject evaluated once more before it."
  (cond
   ((and (memq (car-safe form) '(pcase pcase-exhaustive))
         (consp (cdr form)) (consp (cadr form)))
    `(progn ,(cadr form)
            (,(car form) ,@(mapcar #'pcxc-standin--twice (cdr form)))))
   ((proper-list-p form) (mapcar #'pcxc-standin--twice form))
   (t form)))

(defun pcxc-standin--found-p (node found)
  "Non-nil if the cons NODE is one of the FOUND forms (see pcxc-extract.el)."
  (and (memq (car-safe node) pcxc-extract-heads)
       (cl-some (lambda (f) (pcxc-extract--same-form-p (cons (car node) (cdr node)) f))
                found)))

(defun pcxc-standin--naive-p (node)
  "Non-nil if NODE is a pcase-family form; used where Emacs cannot walk."
  (memq (car-safe node) pcxc-extract-heads))

(defun pcxc-standin--replace (node pick)
  "NODE with every subform PICK accepts replaced by its expansion.
Quoted data is left alone."
  (cond
   ((funcall pick node) (pcxc-standin-expand node))
   ((memq (car-safe node) '(quote function)) node)
   ((consp node)
    (cons (pcxc-standin--replace (car node) pick)
          (pcxc-standin--replace (cdr node) pick)))
   (t node)))

(defun pcxc-standin-expand (form)
  "FORM with its pcase-family forms expanded by Emacs, other macros kept.
A pcase-family form is expanded one step by its own macro; in the result,
and in any other form, the outermost pcase-family forms in code positions
are found the way the extractor finds them and expanded in turn."
  (if (memq (car-safe form) pcxc-extract-heads)
      (pcxc-standin-expand (macroexpand-1 form))
    (let ((found (pcxc-extract--walk form)))
      (pcxc-standin--replace
       form (if (eq found 'error) #'pcxc-standin--naive-p
              (lambda (node) (pcxc-standin--found-p node found)))))))

(defun pcxc-standin--transform (form breakage expand)
  "FORM after BREAKAGE (nil, \"swap\" or \"twice\"), expanded if EXPAND."
  (let ((broken (pcase breakage
                  ('nil form)
                  ("swap" (pcxc-standin--swap form))
                  ("twice" (pcxc-standin--twice form))
                  (_ (error "Unknown --break=%s" breakage)))))
    (if expand (pcxc-standin-expand broken) broken)))

(defun pcxc-standin--forms (file)
  "The top-level forms of FILE with their line numbers: ((LINE . FORM)...)."
  (with-temp-buffer
    (let ((coding-system-for-read 'utf-8-emacs-unix))
      (insert-file-contents file))
    (goto-char (point-min))
    (let ((out '()))
      (while (progn (forward-comment (buffer-size)) (not (eobp)))
        (let ((line (line-number-at-pos)))
          (push (cons line (read (current-buffer))) out)))
      (nreverse out))))

(defun pcxc-standin--options ()
  "The command-line options as (BREAKAGE EXPAND FILE)."
  (let ((breakage nil) (expand t) (file nil))
    (dolist (arg command-line-args-left)
      (cond ((string-prefix-p "--break=" arg) (setq breakage (substring arg 8)))
            ((equal arg "--no-expand") (setq expand nil))
            ((equal arg "--compact"))
            (t (setq file arg))))
    (setq command-line-args-left nil)
    (list breakage expand file)))

(defconst pcxc-standin--codes
  '(("\\`Unknown .* pattern: " . "unknown-pattern")
    ("\\`Unsupported QPAT: " . "splice-in-backquote"))
  "The diagnostic code pcexpand gives to each kind of Emacs's expansion
errors (by message), for case files that expect a code; others are
malformed-pattern.")

(defun pcxc-standin-main ()
  "Command-line entry; see the commentary."
  (pcase-let ((`(,breakage ,expand ,file) (pcxc-standin--options)))
    (pcxc-setup)
    (pcxc-require-quietly (mapcar #'intern (split-string (or (getenv "PCXC_REQUIRE") ""))))
    (let ((lines '()))
      (dolist (entry (pcxc-standin--forms file))
        (condition-case err
            (push (pcxc-print (pcxc-standin--transform (cdr entry) breakage
                                                       expand))
                  lines)
          (error
           (let ((text (error-message-string err)))
             (message "%s:%d:1: error: %s [%s]" file (car entry) text
                      (or (cdr (cl-find-if (lambda (c) (string-match-p (car c) text))
                                           pcxc-standin--codes))
                          "malformed-pattern")))
           (kill-emacs 2))))
      (princ (mapconcat (lambda (l) (concat l "\n")) (nreverse lines) "")))))

;;; pcxc-standin.el ends here
