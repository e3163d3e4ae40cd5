;;; corpus-compile.el --- a file's byte-compiler messages, one per line  -*- lexical-binding: t -*-

;; Used by corpus-compile.sh:
;;   emacs -Q --batch -l corpus-compile.el -f pcx-compile-messages FILE OUT
;; compiles FILE (the compiled file goes to OUT.elc) and writes to OUT
;; each warning, error and note the byte compiler gives, one per line:
;; its level and its text with runs of white space made one space (the
;; positions are left out: they differ between a file and its expansion).
;; An error that stops the compilation is one more line.

;;; Code:

(require 'bytecomp)

(defun pcx-compile-messages ()
  "Compile the file named by the next argument; its messages to the one after."
  (let* ((file (expand-file-name (pop command-line-args-left)))
         (out (expand-file-name (pop command-line-args-left)))
         (messages nil)
         (byte-compile-log-warning-function
          (lambda (string _position &optional _fill level)
            (push (format "%s %s" (or level :warning)
                          (replace-regexp-in-string "[ \t\n]+" " " string))
                  messages)))
         (byte-compile-dest-file-function (lambda (_file) (concat out ".elc"))))
    (condition-case err
        (byte-compile-file file)
      (error (push (format ":stopped %s" (error-message-string err)) messages)))
    (with-temp-file out
      (dolist (m (nreverse messages))
        (insert m "\n")))))

;;; corpus-compile.el ends here
