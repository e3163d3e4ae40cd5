;;; jump-tables.el --- byte-compile cond* expansions, look for jump tables  -*- lexical-binding: t -*-
;; Usage: emacs -Q --batch -l jump-tables.el EXPANSIONS
;; EXPANSIONS has one line per case: ID TAB WANT TAB EXPANSION, where
;; EXPANSION is pcexpand's expansion of (lambda (x) FORM) and WANT is
;; `switch' (the compiled code must dispatch through a jump table) or
;; `none' (it must not).  Prints each case's figures (code bytes, constants,
;; switch instructions) and a summary; exits with status 1 if any case has
;; the wrong answer.

(require 'bytecomp)
(setq byte-compile-warnings nil)

(defun pcx-jt--switches (fn)
  "How many switch instructions FN's disassembly has."
  (with-temp-buffer
    (disassemble fn (current-buffer))
    (goto-char (point-min))
    (let ((n 0))
      (while (re-search-forward "^[0-9]+[ \t]+switch\\b" nil t)
        (setq n (1+ n)))
      n)))

(defun pcx-jt--check (id want text)
  "Compile TEXT, print its figures; a failure message or nil."
  (let* ((fn (let ((inhibit-message t))
               (byte-compile (car (read-from-string text)))))
         (switches (pcx-jt--switches fn))
         (tables (seq-count #'hash-table-p (aref fn 2))))
    (princ (format "%-24s %-6s code %3d bytes, %2d constants, %d switch, %d jump tables\n"
                   id want (length (aref fn 1)) (length (aref fn 2))
                   switches tables))
    (cond ((and (equal want "switch") (or (= switches 0) (= tables 0)))
           (format "%s: no jump table in the compiled code of %s" id text))
          ((and (equal want "none") (> switches 0))
           (format "%s: a jump table where none can be" id)))))

(let ((failed 0) (cases 0))
  (with-temp-buffer
    (insert-file-contents (car command-line-args-left))
    (dolist (line (split-string (buffer-string) "\n" t))
      (let* ((cols (split-string line "\t"))
             (msg (pcx-jt--check (nth 0 cols) (nth 1 cols) (nth 2 cols))))
        (setq cases (1+ cases))
        (when msg
          (setq failed (1+ failed))
          (princ (concat "FAIL " msg "\n"))))))
  (setq command-line-args-left nil)
  (princ (format "cond* jump tables: %d cases, %d failed\n" cases failed))
  (kill-emacs (if (or (> failed 0) (= cases 0)) 1 0)))
