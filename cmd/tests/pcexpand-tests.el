;;; pcexpand-tests.el --- ERT tests of pcexpand.el  -*- lexical-binding: t -*-

;;; Commentary:

;; Run by the test suite (suite 'emacs') as
;;   PCEXPAND=path/to/pcexpand emacs -Q --batch -L cmd \
;;     -l cmd/tests/pcexpand-tests.el -f ert-run-tests-batch-and-exit
;; Each test pipes a small form through the built program and checks the
;; buffers the commands make: the expansion in a read-only Lisp buffer,
;; diagnostics that compilation-mode parses and jumps from.

;;; Code:

(require 'cl-lib)
(require 'ert)
(require 'pcexpand)

(defvar pcexpand-tests-program
  (or (getenv "PCEXPAND") "pcexpand")
  "The program under test.")

(defmacro pcexpand-tests-with-source (text &rest body)
  "Run BODY in a fresh Lisp buffer holding TEXT, with fresh result buffers."
  (declare (indent 1))
  `(let ((pcexpand-program pcexpand-tests-program)
         (pcexpand-arguments nil)
         (pcexpand-width nil))
     (dolist (name '("*pcexpand*" "*pcexpand-diagnostics*"))
       (when (get-buffer name)
         (kill-buffer name)))
     (with-temp-buffer
       (rename-buffer "pcexpand-test-source" t)
       (emacs-lisp-mode)
       (insert ,text)
       ,@body)))

(defun pcexpand-tests-program-output (text &rest args)
  "What the program prints for TEXT with ARGS."
  (with-temp-buffer
    (insert text)
    (apply #'call-process-region (point-min) (point-max)
           pcexpand-tests-program t '(t nil) nil (append args '("-q" "-")))
    (buffer-string)))

(ert-deftest pcexpand-tests-region ()
  "The region's expansion goes to a read-only emacs-lisp buffer."
  (pcexpand-tests-with-source "(pcase x (1 'one) (_ 'other))\n"
    (let ((before (buffer-string)))
      (pcexpand-region (point-min) (point-max))
      (should (equal (buffer-string) before)))
    (with-current-buffer "*pcexpand*"
      (should (derived-mode-p 'emacs-lisp-mode))
      (should buffer-read-only)
      (should (equal (buffer-string) "(if (eql x 1) 'one 'other)\n"))
      (should (eq (key-binding "q") #'quit-window)))
    (should (get-buffer-window "*pcexpand*" t))
    (should-not (get-buffer "*pcexpand-diagnostics*"))))

(ert-deftest pcexpand-tests-region-keeps-positions ()
  "A region that starts inside a line is expanded at its own column."
  (pcexpand-tests-with-source
      "(defun kind (x)\n  ;; Dispatch.\n  (pcase x\n    (`(,a . ,b) (list a b 'some-rather-long-symbol 'another-long-one))\n    (_ nil)))\n"
    (goto-char (point-min))
    (search-forward "(pcase")
    (let ((beg (match-beginning 0)))
      (pcexpand-region beg (- (point-max) 2)))
    (let ((want (pcexpand-tests-program-output
                 "  (pcase x\n    (`(,a . ,b) (list a b 'some-rather-long-symbol 'another-long-one))\n    (_ nil))")))
      (with-current-buffer "*pcexpand*"
        (should (equal (buffer-string) (substring want 2)))
        (should (string-prefix-p "(if (consp x)\n      (let (" (buffer-string)))))))

(ert-deftest pcexpand-tests-last-sexp ()
  "The sexp before point is expanded, as `pp-macroexpand-last-sexp' would."
  (pcexpand-tests-with-source "(foo)\n(pcase-let ((`(,a ,b) pair)) (+ a b))"
    (goto-char (point-max))
    (pcexpand-last-sexp)
    (with-current-buffer "*pcexpand*"
      (should (string-match-p
               (regexp-quote "(let ((a (car-safe pair)) (b (car-safe (cdr-safe pair))))")
               (buffer-string)))
      (should-not (string-match-p "pcase" (buffer-string)))
      (should-not (string-match-p "foo" (buffer-string))))))

(ert-deftest pcexpand-tests-width ()
  "`pcexpand-width' is passed on."
  (pcexpand-tests-with-source
      "(pcase x (`(,a . ,b) (+ a b)) (_ 'other))"
    (let ((pcexpand-width 30))
      (pcexpand-region (point-min) (point-max)))
    (with-current-buffer "*pcexpand*"
      (dolist (line (split-string (buffer-string) "\n"))
        (should (<= (length line) 40))))))

(ert-deftest pcexpand-tests-error-jumps-to-position ()
  "An error shows no result; next-error lands on the offending sub-form."
  (pcexpand-tests-with-source
      ";; A comment line.\n(list 1\n      (pcase x\n        ((bogus-head y) y)))\n"
    (let ((source (current-buffer)))
      (goto-char (point-min))
      (search-forward "(pcase")
      (pcexpand-region (match-beginning 0) (- (point-max) 2))
      (should-not (get-buffer "*pcexpand*"))
      (with-current-buffer "*pcexpand-diagnostics*"
        (should (derived-mode-p 'compilation-mode))
        (should (string-match-p
                 "\\`pcexpand-test-source:4:10: error: Unknown bogus-head pattern"
                 (buffer-string)))
        (should (equal default-directory
                       (buffer-local-value 'default-directory source))))
      (set-buffer "*pcexpand-diagnostics*")
      (let ((next-error-function #'compilation-next-error-function))
        (compilation-next-error-function 0 t))
      (should (eq (window-buffer (selected-window)) source))
      (should (eq (current-buffer) source))
      (should (equal (line-number-at-pos) 4))
      (should (equal (current-column) 9))
      (should (looking-at "(bogus-head y)")))))

(ert-deftest pcexpand-tests-internal-error-message ()
  "Exit status 3 is reported as a bug in pcexpand."
  (let ((script (make-temp-file "pcexpand-fake" nil ".sh"
                                "#!/bin/sh\ncat >/dev/null\necho 'pcexpand: internal error' >&2\nexit 3\n")))
    (unwind-protect
        (pcexpand-tests-with-source "(pcase x (_ 1))"
          (set-file-modes script #o755)
          (let ((pcexpand-program script)
                (messages nil))
            (cl-letf (((symbol-function 'message)
                       (lambda (fmt &rest args)
                         (push (apply #'format fmt args) messages))))
              (pcexpand-region (point-min) (point-max)))
            (should (string-match-p "bug in pcexpand" (car messages)))
            (should-not (get-buffer "*pcexpand*"))
            (should (get-buffer "*pcexpand-diagnostics*"))))
      (delete-file script))))

(defconst pcexpand-tests-article
  "(defun report (x)
  (pcase (get-return-code x)
    ;; string
    ((and (pred stringp) msg)
     (message \"%s\" msg))
    ;; symbol
    ('success       (message \"Done!\"))
    ('would-block   (message \"Sorry, can't do it now\"))
    ('read-only     (message \"The shmliblick is read-only\"))
    ('access-denied (message \"You do not have the needed rights\"))
    ;; default
    (code           (message \"Unknown return code %S\" code))))
"
  "The pcase example of the Emacs Lisp manual: string, symbols, default.")

(ert-deftest pcexpand-tests-explain ()
  "pcexpand-explain shows the program's --explain text of the form at point."
  (pcexpand-tests-with-source pcexpand-tests-article
    (goto-char (point-min))
    (search-forward "would-block")
    (let ((before (buffer-string))
          (dir (make-temp-file "pcexpand-explain" t)))
      (unwind-protect
          (let ((file (expand-file-name "pcexpand-test-source" dir)))
            (pcexpand-explain)
            (should (equal (buffer-string) before))
            ;; the same text as the program gives on the file, --at the
            ;; form's line
            (write-region (point-min) (point-max) file nil 'silent)
            (let ((expected
                   (with-temp-buffer
                     (let ((default-directory dir))
                       (call-process pcexpand-tests-program nil '(t nil) nil
                                     "--explain" "--at=2"
                                     "pcexpand-test-source"))
                     (buffer-string))))
              (should (string-match-p "^clause 2 (line 7): 'success$" expected))
              (with-current-buffer "*pcexpand-explain*"
                (should (derived-mode-p 'help-mode))
                (should (equal (buffer-string) expected))
                (should (string-match-p "^  chosen when: VAL is a string$"
                                        (buffer-string)))
                (should (string-match-p "^  binds: code = VAL$" (buffer-string))))))
        (delete-directory dir t)))))

(defun pcexpand-tests-wait-for-flymake (max-seconds)
  "Wait until Flymake has diagnostics, for at most MAX-SECONDS."
  (let ((deadline (+ (float-time) max-seconds)))
    (while (and (null (flymake-diagnostics)) (< (float-time) deadline))
      (accept-process-output nil 0.05))))

(ert-deftest pcexpand-tests-flymake-shadowed-clause ()
  "A shadowed clause gets a Flymake warning at its line and column."
  (require 'flymake)
  (pcexpand-tests-with-source "(defun f (x)\n  (pcase x\n    ((pred stringp) 1)\n\t(\"s\" 2)))\n"
    (setq-local flymake-diagnostic-functions '(pcexpand-flymake))
    (let ((flymake-no-changes-timeout nil)
          (inhibit-message t))
      (flymake-mode 1)
      (flymake-start)
      (pcexpand-tests-wait-for-flymake 10)
      (let* ((diags (flymake-diagnostics))
             (warning (seq-find (lambda (d) (eq (flymake-diagnostic-type d) :warning))
                                diags)))
        (should warning)
        (should (string-match-p "this clause can never be reached \\[unreachable-clause\\]"
                                (flymake-diagnostic-text warning)))
        ;; line 4, screen column 9: the clause after a TAB
        (let ((beg (flymake-diagnostic-beg warning)))
          (should (= (line-number-at-pos beg) 4))
          (should (= (save-excursion (goto-char beg) (current-column)) 8))
          (should (eq (char-after beg) ?\()))
        ;; the note points at the clause that takes its values
        (should (seq-find (lambda (d) (and (eq (flymake-diagnostic-type d) :note)
                                           (= (line-number-at-pos
                                               (flymake-diagnostic-beg d))
                                              3)))
                          diags)))
      (flymake-mode -1))))

(ert-deftest pcexpand-tests-flymake-witness ()
  "A pcase-exhaustive that can fail names the value in its Flymake message;
a buffer with a read error gets the error; an edit that fixes it clears it."
  (require 'flymake)
  (pcexpand-tests-with-source "(pcase-exhaustive k\n  ('a 1)\n  ('b 2))\n"
    (let ((reports nil))
      (pcexpand-flymake (lambda (&rest r) (push r reports)))
      (let ((deadline (+ (float-time) 10)))
        (while (and (null reports) (< (float-time) deadline))
          (accept-process-output nil 0.05)))
      (should (= (length reports) 1))
      (let ((d (car (car (car reports)))))
        (should (eq (flymake-diagnostic-type d) :warning))
        (should (= (flymake-diagnostic-beg d) (point-min)))
        (should (string-match-p "no clause matches the value foo \\[exhaustive-can-fail\\]"
                                (flymake-diagnostic-text d))))
      (erase-buffer)
      (insert "(pcase x\n  (1 'one)\n")
      (setq reports nil)
      (pcexpand-flymake (lambda (&rest r) (push r reports)))
      (let ((deadline (+ (float-time) 10)))
        (while (and (null reports) (< (float-time) deadline))
          (accept-process-output nil 0.05)))
      (let ((d (car (car (car reports)))))
        (should (eq (flymake-diagnostic-type d) :error))
        (should (string-match-p "\\[read\\]" (flymake-diagnostic-text d)))))))

(ert-deftest pcexpand-tests-byte-compiles-cleanly ()
  "pcexpand.el byte-compiles without warnings."
  (let* ((src (locate-library "pcexpand.el" t))
         (dir (make-temp-file "pcexpand-elc" t))
         (copy (expand-file-name "pcexpand.el" dir))
         (byte-compile-error-on-warn t))
    (unwind-protect
        (progn
          (copy-file src copy)
          (should (byte-compile-file copy)))
      (delete-directory dir t))))

(provide 'pcexpand-tests)

;;; pcexpand-tests.el ends here
