;;; check-cases.el --- compare cases.txt with Emacs's own expanders  -*- lexical-binding: t -*-

;; Usage (from this directory):
;;   emacs -Q --batch -l check-cases.el
;; For every `expand' case of cases.txt whose head is a library pattern
;; macro (seq, map, rx, cl-type, eieio) and whose result is not NULL, run
;; Emacs's own expander and compare it with the expected rewrite (an Emacs
;; older than 30 writes (pcase--flip F A) where 30 writes (F _ A): that is
;; undone first).  rx cases that use names rx does not define (which
;; pcexpand leaves to a run-time rx-to-string) are listed rather than
;; counted as failures.  Then every row of rx-cases.tsv is recomputed (as
;; gen-rx-cases.el computes it, rx-case.el) and compared.  Exit status 1
;; on a mismatch.

(require 'seq) (require 'map) (require 'rx) (require 'cl-lib) (require 'eieio)

(defun check-cases--unflip (x)
  (cond ((and (consp x) (eq (car x) 'pcase--flip))
         (list (nth 1 x) '_ (check-cases--unflip (nth 2 x))))
        ((consp x) (cons (check-cases--unflip (car x)) (check-cases--unflip (cdr x))))
        (t x)))

(let ((failures 0) (checked 0) (lines nil) (redefined nil) (rx-defined nil))
  (with-temp-buffer
    (insert-file-contents "cases.txt")
    (setq lines (split-string (buffer-string) "\n")))
  (while lines
    (let ((line (pop lines)))
      ;; a template redefinition in cases.txt replaces the library macro
      (when (and (string-prefix-p "learn (pcase-defmacro " line)
                 (equal (car lines) "=> learned"))
        (push (nth 1 (car (read-from-string (substring line 6)))) redefined))
      ;; an rx definition of the file: defined here too, until `newfile'
      (when (and (string-prefix-p "learn (rx-define " line)
                 (equal (car lines) "=> learned"))
        (let ((form (car (read-from-string (substring line 6)))))
          (eval form t)
          (push (nth 1 form) rx-defined)))
      (when (equal line "newfile")
        (dolist (name rx-defined) (put name 'rx-definition nil))
        (setq rx-defined nil))
      (when (string-prefix-p "expand " line)
        (let* ((pat (car (read-from-string (substring line 7))))
               (want (and lines (string-prefix-p "=> " (car lines))
                          (substring (car lines) 3))))
          (when (and (consp pat) (memq (car pat) '(seq map rx cl-type eieio))
                     (not (memq (car pat) redefined))
                     want (not (equal want "NULL")))
            (let ((got (condition-case err
                           (prin1-to-string
                            (check-cases--unflip
                             (apply (get (car pat) 'pcase-macroexpander)
                                    (cdr pat))))
                         (error (format "ERROR %S" err)))))
              (setq checked (1+ checked))
              (cond ((equal got want))
                    ((and (string-prefix-p "ERROR" got)
                          (string-match-p "rx-to-string" want))
                     (message "run-time rx (%s): %s" got line))
                    (t (setq failures (1+ failures))
                       (message "MISMATCH %s\n  cases.txt: %s\n  Emacs:     %s"
                                line want got)))))))))
  (load (expand-file-name "rx-case.el") nil t)
  (with-temp-buffer
    (let ((coding-system-for-read 'utf-8-emacs-unix))
      (insert-file-contents "rx-cases.tsv"))
    (dolist (row (split-string (buffer-string) "\n" t))
      (unless (string-prefix-p "#" row)
        (let* ((tab (string-search "\t" row))
               (form (car (read-from-string (substring row 0 tab))))
               (want (substring row (1+ tab)))
               (got (rx-case-result form)))
          (setq checked (1+ checked))
          (unless (equal got want)
            (setq failures (1+ failures))
            (message "MISMATCH rx %S\n  rx-cases.tsv: %s\n  Emacs:        %s"
                     form want got))))))
  (message "%d cases checked, %d mismatches" checked failures)
  (kill-emacs (if (> failures 0) 1 0)))
