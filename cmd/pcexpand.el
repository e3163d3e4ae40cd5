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

(provide 'pcexpand)

;;; pcexpand.el ends here
