;;; bench_pcase.el --- Emacs's side of the pcase-expand benchmark  -*- lexical-binding: t -*-
;; Used by bench_pcase.sh (the meson benchmark `pcase-expand'); each entry
;; point is a `-f' function reading its arguments from the command line:
;;   bench-pcase-select ALL.el ERR BENCH.el  keep the forms (one per line) that
;;       pcexpand expanded without an error (ERR: its diagnostics) and that
;;       Emacs's `macroexpand-all' expands too; write them to BENCH.el
;;   bench-pcase-expand BENCH.el OUT.el  macroexpand-all every form and print
;;       the results (the process timed against pcexpand)
;;   bench-pcase-sizes BENCH.el PCX.el  print the sizes (conses + atoms) of
;;       the forms, of Emacs's expansion, of pcexpand's output, and of
;;       pcexpand's output after `macroexpand-all' (all other macros expanded,
;;       as in Emacs's own result)
;;   bench-pcase-size FILE  print the conses and the size of the forms of FILE
;;   bench-pcase-compiled  print whether pcase's compiler and the macro
;;       expander run native-compiled or byte-compiled in this Emacs
;;   bench-pcase-and-or KMAX  for k = 2..KMAX: the conses and size of Emacs's
;;       expansion of an `and' of k `or's and the time it takes (in this
;;       process)
;; Emacs's pattern macro libraries are loaded up front, as in the
;; conformance suites.

;; The forms are expanded under lexical binding, as the byte compiler
;; expands those of Emacs 30.1's corpus (every file of it is lexical;
;; `named-let', for one, refuses dynamic binding).
(setq-default lexical-binding t)

(require 'seq)
(require 'map)
(require 'rx)
(require 'cl-lib)
(require 'eieio)

(defun bench-pcase--lines (file)
  "The lines of FILE."
  (with-temp-buffer
    (insert-file-contents file)
    (split-string (buffer-string) "\n" t)))

(defun bench-pcase--read-all (file)
  "Every form of FILE."
  (with-temp-buffer
    (insert-file-contents file)
    (goto-char (point-min))
    (let (forms)
      (condition-case nil
          (while t (push (read (current-buffer)) forms))
        (end-of-file nil))
      (nreverse forms))))

(defun bench-pcase--size (x)
  "Conses plus atoms of X (a vector counts as one plus its elements)."
  (let ((n 0) (stack (list x)))
    (while stack
      (let ((v (pop stack)))
        (setq n (1+ n))
        (cond ((consp v) (push (car v) stack) (push (cdr v) stack))
              ((and (vectorp v) (not (recordp v)))
               (mapc (lambda (e) (push e stack)) v)))))
    n))

(defun bench-pcase--conses (x)
  "The conses of X (inside vectors too)."
  (let ((n 0) (stack (list x)))
    (while stack
      (let ((v (pop stack)))
        (cond ((consp v) (setq n (1+ n)) (push (car v) stack) (push (cdr v) stack))
              ((and (vectorp v) (not (recordp v)))
               (mapc (lambda (e) (push e stack)) v)))))
    n))

(defun bench-pcase--error-lines (file)
  "Line numbers of the error diagnostics in FILE (pcexpand's GNU format)."
  (let (lines)
    (dolist (l (bench-pcase--lines file) lines)
      (when (string-match "^[^:]*:\\([0-9]+\\):[0-9]+: error:" l)
        (push (string-to-number (match-string 1 l)) lines)))))

(defun bench-pcase-select ()
  (let* ((args command-line-args-left)
         (bad (bench-pcase--error-lines (nth 1 args)))
         (line 0) (kept 0) (pcx-errors 0) (emacs-errors 0))
    (setq command-line-args-left nil)
    (with-temp-file (nth 2 args)
      (dolist (text (bench-pcase--lines (nth 0 args)))
        (setq line (1+ line))
        (cond ((memq line bad) (setq pcx-errors (1+ pcx-errors)))
              ((condition-case nil
                   (progn (macroexpand-all (car (read-from-string text))) nil)
                 (error t))
               (setq emacs-errors (1+ emacs-errors)))
              (t (setq kept (1+ kept)) (insert text "\n")))))
    (princ (format "forms: %d kept, %d refused by pcexpand, %d by Emacs\n"
                   kept pcx-errors emacs-errors))))

(defun bench-pcase-expand ()
  (let ((forms (bench-pcase--read-all (nth 0 command-line-args-left)))
        (print-circle t) (print-gensym t))
    (with-temp-file (nth 1 command-line-args-left)
      (dolist (f forms)
        (prin1 (macroexpand-all f) (current-buffer))
        (insert "\n")))
    (setq command-line-args-left nil)))

(defun bench-pcase-compiled ()
  "Print how this Emacs runs the code the benchmark times: its version and,
for pcase's compiler and the macro expander, whether the function is
native-compiled or byte-compiled."
  (require 'pcase)
  (princ (format "Emacs %s:%s\n" emacs-version
                 (mapconcat
                  (lambda (f)
                    (let ((d (indirect-function f)))
                      (format " %s %s" f
                              (cond ((and (fboundp 'native-comp-function-p)
                                          (native-comp-function-p d))
                                     "native-compiled")
                                    ((and (fboundp 'subr-native-elisp-p)
                                          (subr-native-elisp-p d))
                                     "native-compiled")
                                    ((byte-code-function-p d) "byte-compiled")
                                    (t "interpreted")))))
                  '(pcase--u1 pcase--expand macroexp--expand-all) ","))))

(defun bench-pcase-sizes ()
  (let* ((forms (bench-pcase--read-all (nth 0 command-line-args-left)))
         (pcx (bench-pcase--read-all (nth 1 command-line-args-left)))
         (sum (lambda (l) (apply #'+ (mapcar #'bench-pcase--size l)))))
    (setq command-line-args-left nil)
    (unless (= (length forms) (length pcx))
      (error "%d forms but %d expansions" (length forms) (length pcx)))
    (let ((emacs (funcall sum (mapcar #'macroexpand-all forms)))
          (out (funcall sum pcx))
          (out-all (funcall sum (mapcar #'macroexpand-all pcx))))
      (princ (format "size (conses + atoms) of %d forms: input %d\n"
                     (length forms) (funcall sum forms)))
      (princ (format "  Emacs macroexpand-all                 %9d\n" emacs))
      (princ (format "  pcexpand output                       %9d\n" out))
      (princ (format "  pcexpand output, then macroexpand-all %9d\n" out-all))
      (princ (format "  aim: pcexpand's size <= Emacs's: %s (%d <= %d; %.2f of it)\n"
                     (if (<= out emacs) "MET" "NOT MET") out emacs
                     (/ out (float emacs)))))))

(defun bench-pcase-size ()
  (let ((forms (bench-pcase--read-all (pop command-line-args-left))))
    (princ (format "%d %d\n" (apply #'+ (mapcar #'bench-pcase--conses forms))
                   (apply #'+ (mapcar #'bench-pcase--size forms))))))

(defun bench-pcase--and-of-ors (k)
  "The pcase form with an `and' of K `or's of predicates."
  (let (ors)
    (dotimes (i k)
      (push `(or (pred ,(intern (format "p%d" i))) (pred ,(intern (format "q%d" i)))) ors))
    `(pcase x ((and ,@(nreverse ors)) 'yes) (_ 'no))))

(defun bench-pcase-and-or ()
  (let ((kmax (string-to-number (nth 0 command-line-args-left))))
    (setq command-line-args-left nil)
    (cl-loop for k from 2 to kmax do
             (garbage-collect)
             (let* ((start (float-time))
                    (e (macroexpand-all (bench-pcase--and-of-ors k)))
                    (secs (- (float-time) start)))
               (princ (format "%d %d %d %.4f\n" k (bench-pcase--conses e)
                              (bench-pcase--size e) secs))))))
