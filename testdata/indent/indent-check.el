;;; indent-check.el --- does indent-region leave pcexpand's output alone?  -*- lexical-binding: t -*-

;; Runs a generator program (argument after --), inserts its output in a
;; buffer in emacs-lisp-mode with indent-tabs-mode nil, runs
;; indent-region over it and compares every line with the original.
;; Also checks that no line has a TAB or trailing whitespace.  Exits
;; with status 1 and prints the first differences when a line moved.
;; The libraries of gen-specs.el are loaded first so that Emacs knows the
;; same indent specs as pcexpand's table.
;;
;; Usage: emacs -Q --batch -l indent-check.el -- PROGRAM [ARGS...]
;;        emacs -Q --batch -l indent-check.el -- --file FILE.el

(dolist (lib '(cl-lib cl-extra subr-x seq map gv rx eieio ert generator
               thunk let-alist macroexp nadvice))
  (require lib))

(defun indent-check-lines (text)
  (split-string text "\n"))

(defun indent-check-report (before after)
  "Print lines of BEFORE that differ in AFTER; return the count."
  (let ((bl (indent-check-lines before))
        (al (indent-check-lines after))
        (n 0) (line 1) (shown 0))
    (while (or bl al)
      (let ((b (car bl)) (a (car al)))
        (unless (equal b a)
          (setq n (1+ n))
          (when (< shown 15)
            (setq shown (1+ shown))
            (princ (format "line %d moved:\n  printed: %S\n  emacs:   %S\n"
                           line b a))))
        (when (and b (string-match-p "\t\\|[ ]$" b))
          (setq n (1+ n))
          (princ (format "line %d has a TAB or trailing space: %S\n" line b))))
      (setq bl (cdr bl) al (cdr al) line (1+ line)))
    n))

(let* ((args (cdr (member "--" command-line-args)))
       (status 0))
  (setq command-line-args-left nil)
  (with-temp-buffer
    (if (equal (car args) "--file")
        (insert-file-contents (cadr args))
      (setq status (apply #'call-process (car args) nil '(t nil) nil (cdr args))))
    (unless (eql status 0)
      (princ (format "generator failed: %S\n" status))
      (kill-emacs 2))
    (emacs-lisp-mode)
    (setq indent-tabs-mode nil)
    (let ((before (buffer-string))
          (inhibit-message t))
      (indent-region (point-min) (point-max))
      (let ((n (indent-check-report before (buffer-string))))
        (princ (format "indent-check: %d lines, %d problems\n"
                       (count-lines (point-min) (point-max)) n))
        (kill-emacs (if (> n 0) 1 0))))))

;;; indent-check.el ends here
