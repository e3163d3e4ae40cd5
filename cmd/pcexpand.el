;;; pcexpand.el --- Show pcase and cond* forms expanded by pcexpand  -*- lexical-binding: t -*-

;; Keywords: lisp, tools
;; Package-Requires: ((emacs "28.1"))

;; This file is part of pcexpand.  It is free software: you can
;; redistribute it and/or modify it under the terms of the GNU General
;; Public License as published by the Free Software Foundation, either
;; version 3 of the License, or (at your option) any later version.

;;; Commentary:

;; Two commands run the pcexpand program on Emacs Lisp text and show
;; what every `pcase'-family and `cond*' form in it means in plain
;; Emacs Lisp:
;;
;;   M-x pcexpand-region      the active region
;;   M-x pcexpand-last-sexp   the sexp that ends at point
;;
;; The expansion appears in the read-only buffer *pcexpand* (q quits
;; its window); the source buffer is never modified.  Diagnostics go to
;; *pcexpand-diagnostics*, a `compilation-mode' buffer, so that
;; `next-error' and RET jump to the offending sub-form.
;;
;; The text is sent with as many newlines and spaces before it as there
;; are lines and columns before the region, so the line and column
;; numbers the program reports are those of the source buffer; the
;; program keeps that padding in its output and the commands remove it.
;;
;;   M-x pcexpand-explain     what the form at point does, in words
;;
;; shows the program's --explain text for the innermost pcase-family or
;; cond* form around point in the help buffer *pcexpand-explain*: the
;; conditions under which each clause is chosen, what it binds, the
;; clauses no value reaches, a value no clause matches.
;;
;; `pcexpand-flymake' is a Flymake backend: with
;;
;;   (add-hook 'flymake-diagnostic-functions #'pcexpand-flymake nil t)
;;
;; in an Emacs Lisp buffer (and `flymake-mode' on), the program checks the
;; buffer as you edit it and its warnings (unreachable clauses, a
;; pcase-exhaustive that can fail and the value that makes it fail, ...)
;; are shown at the sub-forms they are about.

;;; Code:

(require 'compile)

(defgroup pcexpand nil
  "Expand pcase and cond* forms with the pcexpand program."
  :group 'lisp
  :prefix "pcexpand-")

(defcustom pcexpand-program "pcexpand"
  "The pcexpand program: a file name, or a command found in `exec-path'."
  :type 'string)

(defcustom pcexpand-arguments nil
  "Extra command-line arguments for `pcexpand-program'."
  :type '(repeat string))

(defcustom pcexpand-width nil
  "Fill column of the expansion, or nil for the program's default."
  :type '(choice (const :tag "Program default" nil) natnum))

(defconst pcexpand--result-buffer "*pcexpand*"
  "Name of the buffer that shows expansions.")

(defconst pcexpand--diagnostics-buffer "*pcexpand-diagnostics*"
  "Name of the buffer that shows the program's messages.")

(defvar pcexpand-result-mode-map
  (let ((map (make-sparse-keymap)))
    (set-keymap-parent map emacs-lisp-mode-map)
    (define-key map "q" #'quit-window)
    map)
  "Keymap of the *pcexpand* buffer: `emacs-lisp-mode' keys and q.")

(defun pcexpand--name ()
  "The name the program gives the current buffer's text in messages."
  (or buffer-file-name (buffer-name)))

(defun pcexpand--padding (beg)
  "The text that puts position BEG at its own line and column."
  (save-excursion
    (goto-char beg)
    (concat (make-string (1- (line-number-at-pos beg t)) ?\n)
            (make-string (current-column) ?\s))))

(defun pcexpand--arguments ()
  "The command line after the program name, for the current buffer."
  (append (list "-q" (concat "--stdin-filepath=" (pcexpand--name)))
          (and pcexpand-width
               (list (format "--width=%d" pcexpand-width)))
          pcexpand-arguments
          (list "-")))

(defun pcexpand--run (text)
  "Run the program on TEXT from the current buffer; return (STATUS STDOUT STDERR)."
  (let ((err-file (make-temp-file "pcexpand-err"))
        (args (pcexpand--arguments))
        (coding-system-for-read 'utf-8-emacs-unix)
        (coding-system-for-write 'utf-8-emacs-unix))
    (unwind-protect
        (with-temp-buffer
          (insert text)
          (let ((status (apply #'call-process-region (point-min) (point-max)
                               pcexpand-program t (list t err-file) nil
                               args)))
            (list status
                  (buffer-string)
                  (with-temp-buffer
                    (insert-file-contents err-file)
                    (buffer-string)))))
      (delete-file err-file))))

(defun pcexpand--strip (output padding)
  "OUTPUT without the PADDING the program was given before the text."
  (if (string-prefix-p padding output)
      (substring output (length padding))
    (replace-regexp-in-string "\\`\n*" "" output)))

(defun pcexpand--show-result (text)
  "Show TEXT in the read-only *pcexpand* buffer."
  (let ((buf (get-buffer-create pcexpand--result-buffer)))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (erase-buffer)
        (insert text)
        (goto-char (point-min)))
      (unless (derived-mode-p 'emacs-lisp-mode)
        (emacs-lisp-mode))
      (use-local-map pcexpand-result-mode-map)
      (setq buffer-read-only t)
      (set-buffer-modified-p nil))
    (display-buffer buf)))

(defun pcexpand--show-diagnostics (text source)
  "Show the program's messages TEXT about buffer SOURCE."
  (let ((buf (get-buffer-create pcexpand--diagnostics-buffer))
        (dir (buffer-local-value 'default-directory source))
        (name (with-current-buffer source (pcexpand--name))))
    (with-current-buffer buf
      (let ((inhibit-read-only t))
        (erase-buffer)
        (compilation-mode)
        (setq default-directory dir)
        (setq-local compilation-parse-errors-filename-function
                    (lambda (file)
                      (if (and (string= file name) (buffer-live-p source))
                          source
                        file)))
        (insert text)
        (goto-char (point-min))))
    (display-buffer buf)))

(defun pcexpand--expand (beg end)
  "Expand the text from BEG to END of the current buffer and show it."
  (let* ((padding (pcexpand--padding beg))
         (result (pcexpand--run
                  (concat padding (buffer-substring-no-properties beg end))))
         (status (nth 0 result)))
    (unless (string= (nth 2 result) "")
      (pcexpand--show-diagnostics (nth 2 result) (current-buffer)))
    (cond
     ((and (integerp status) (<= status 1))
      (pcexpand--show-result (pcexpand--strip (nth 1 result) padding)))
     ((eql status 2)
      (message "pcexpand: the text has errors; see %s"
               pcexpand--diagnostics-buffer))
     ((eql status 3)
      (message "pcexpand: internal error, a bug in pcexpand; please report it"))
     (t
      (message "pcexpand: %s exited with %s" pcexpand-program status)))))

;;;###autoload
(defun pcexpand-region (beg end)
  "Show the Emacs Lisp between BEG and END with pcase and cond* expanded.
The expansion appears in the buffer *pcexpand*; messages of the
program appear in *pcexpand-diagnostics*, where \\[next-error] jumps
to the place they are about."
  (interactive "r")
  (pcexpand--expand beg end))

;;;###autoload
(defun pcexpand-last-sexp ()
  "Show the sexp before point with pcase and cond* forms expanded.
Like `pcexpand-region' on the sexp that ends at point."
  (interactive)
  (pcexpand--expand (save-excursion (backward-sexp) (point)) (point)))

;;;; Explanations

(defconst pcexpand--explain-buffer "*pcexpand-explain*"
  "Name of the help buffer that shows explanations.")

(defun pcexpand--screen-column ()
  "Point's column as the program counts it: 1-based, tabs to multiples of 8."
  (let ((tab-width 8))
    (1+ (current-column))))

;;;###autoload
(defun pcexpand-explain (&optional pos)
  "Explain the pcase-family or cond* form at POS (default: point) in words.
The innermost such form around POS is explained by the program's
--explain in the help buffer *pcexpand-explain*: its subject, the
conditions under which each clause is chosen and what it binds, the
clauses no value can reach, a value no clause matches, the functions
and guards it calls."
  (interactive)
  (let* ((pos (or pos (point)))
         (at (save-excursion
               (goto-char pos)
               (format "--at=%d:%d" (line-number-at-pos pos t)
                       (pcexpand--screen-column))))
         (pcexpand-arguments (append (list "--explain" at) pcexpand-arguments))
         (source (current-buffer))
         (result (save-restriction
                   (widen)
                   (pcexpand--run (buffer-substring-no-properties
                                   (point-min) (point-max)))))
         (status (nth 0 result)))
    (unless (string= (nth 2 result) "")
      (pcexpand--show-diagnostics (nth 2 result) source))
    (if (eql status 0)
        (with-help-window pcexpand--explain-buffer
          (princ (nth 1 result)))
      (message "pcexpand: no explanation (%s); see %s"
               (if (eql status 3) "a bug in pcexpand, please report it"
                 (format "exit status %s" status))
               pcexpand--diagnostics-buffer))))

;;;; Flymake

(defvar-local pcexpand--flymake-process nil
  "The program's run that checks the current buffer, or nil.")

(declare-function flymake-make-diagnostic "flymake")

(defun pcexpand--line-column-position (line column)
  "The position of LINE and screen COLUMN (1-based, tabs of 8)."
  (save-excursion
    (goto-char (point-min))
    (forward-line (1- line))
    (let ((tab-width 8))
      (move-to-column (1- column)))
    (point)))

(defun pcexpand--flymake-diagnostics (source messages)
  "Flymake diagnostics of SOURCE from the program's JSON MESSAGES."
  (let (diags)
    (dolist (line (split-string messages "\n" t))
      (let ((m (ignore-errors
                 (json-parse-string line :object-type 'alist :null-object nil))))
        (when (alist-get 'line m)
          (with-current-buffer source
            (let* ((beg (pcexpand--line-column-position (alist-get 'line m)
                                                        (alist-get 'column m)))
                   (end (pcexpand--line-column-position (alist-get 'end_line m)
                                                        (alist-get 'end_column m)))
                   (type (pcase (alist-get 'severity m)
                           ("error" :error) ("warning" :warning) (_ :note))))
              (push (flymake-make-diagnostic
                     source beg (max end (1+ beg)) type
                     (format "%s [%s]" (alist-get 'message m) (alist-get 'code m)))
                    diags))))))
    (nreverse diags)))

;;;###autoload
(defun pcexpand-flymake (report-fn &rest _args)
  "Flymake backend: the program's messages about the current buffer.
The buffer's text is sent to the program on standard input (named
as the buffer's file with --stdin-filepath); REPORT-FN gets its
errors, warnings and notes at the sub-forms they are about."
  (when (process-live-p pcexpand--flymake-process)
    (kill-process pcexpand--flymake-process))
  (let* ((source (current-buffer))
         (out (generate-new-buffer " *pcexpand-flymake-out*"))
         (err (generate-new-buffer " *pcexpand-flymake-err*"))
         (proc
          (make-process
           :name "pcexpand-flymake" :noquery t :connection-type 'pipe
           :buffer out :stderr err
           :coding 'utf-8-emacs-unix
           :command (append (list pcexpand-program "--message-format=json"
                                  (concat "--stdin-filepath=" (pcexpand--name)))
                            pcexpand-arguments (list "-"))
           :sentinel
           (lambda (p _event)
             (unless (process-live-p p)
               (unwind-protect
                   (when (and (buffer-live-p source)
                              (eq p (buffer-local-value 'pcexpand--flymake-process
                                                        source)))
                     ;; the stderr pipe may still hold the last lines
                     (let ((ep (get-buffer-process err)))
                       (while (and ep (process-live-p ep)
                                   (accept-process-output ep 0.05))))
                     (if (memq (process-exit-status p) '(0 1 2))
                         (funcall report-fn
                                  (pcexpand--flymake-diagnostics
                                   source (with-current-buffer err (buffer-string))))
                       (funcall report-fn :panic
                                :explanation (format "pcexpand exited with %s"
                                                     (process-exit-status p)))))
                 (kill-buffer out)
                 (kill-buffer err)))))))
    (setq pcexpand--flymake-process proc)
    (save-restriction
      (widen)
      (process-send-region proc (point-min) (point-max)))
    (process-send-eof proc)))

(provide 'pcexpand)

;;; pcexpand.el ends here
