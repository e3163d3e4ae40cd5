;;; pcxc-standin.el --- an expander built from Emacs's own macros  -*- lexical-binding: t -*-

;; Usage:
;;   emacs -Q --batch -L DIR -l pcxc-standin -f pcxc-standin-main \
;;         [--break=swap|twice] [--no-expand] --compact FILE
;;
;; Behaves like `pcexpand --compact FILE' as far as the conformance harness
;; needs: each top-level form of FILE is printed on one line, after
;; `macroexpand-all' in the harness's reference Emacs (so every macro is
;; expanded, not only the pcase family - the meaning is the same).
;; Temporaries stay uninterned and are printed with #N= labels so that
;; they read back as the same symbols.  If any form cannot be expanded,
;; nothing is printed, a diagnostic goes to stderr and the exit status is 2.
;;
;; It exists to validate the harness itself: run as is it must produce no
;; mismatch.  --break=swap exchanges the first two clauses of every pcase
;; and pcase-exhaustive, --break=twice evaluates every non-symbol pcase
;; subject twice; the harness must report both.

(require 'pcxc-lib)

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

(defun pcxc-standin--transform (form breakage expand)
  "FORM after BREAKAGE (nil, \"swap\" or \"twice\"), expanded if EXPAND."
  (let ((broken (pcase breakage
                  ('nil form)
                  ("swap" (pcxc-standin--swap form))
                  ("twice" (pcxc-standin--twice form))
                  (_ (error "Unknown --break=%s" breakage)))))
    (if expand (macroexpand-all broken) broken)))

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

(defun pcxc-standin-main ()
  "Command-line entry; see the commentary."
  (pcase-let ((`(,breakage ,expand ,file) (pcxc-standin--options)))
    (pcxc-setup)
    (let ((lines '()))
      (dolist (entry (pcxc-standin--forms file))
        (condition-case err
            (push (pcxc-print (pcxc-standin--transform (cdr entry) breakage
                                                       expand))
                  lines)
          (error
           (message "%s:%d:1: error: %s [malformed-pattern]" file (car entry)
                    (error-message-string err))
           (kill-emacs 2))))
      (princ (mapconcat (lambda (l) (concat l "\n")) (nreverse lines) "")))))

;;; pcxc-standin.el ends here
