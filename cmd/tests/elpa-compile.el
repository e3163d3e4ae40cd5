;;; elpa-compile.el --- byte-compile files and list their warnings  -*- lexical-binding: t -*-

;; Run as:
;;   emacs -Q --batch -l elpa-compile.el -f pcx-elpa-compile ROOT LIST ELC PATH
;;
;; Byte-compiles each file named in LIST (one path relative to ROOT per
;; line, in order) with the directories of PATH (one absolute directory
;; per line) in front of `load-path', writing the .elc files under ELC,
;; and prints one line per warning or error the byte
;; compiler logs, then one line per file:
;;
;;   W <TAB> FILE <TAB> LEVEL <TAB> DEFINITION <TAB> MESSAGE
;;   R <TAB> FILE <TAB> ok|failed
;;
;; FILE is relative to ROOT, DEFINITION the name of the top-level
;; definition being compiled (`byte-compile-current-form'), MESSAGE the
;; text with ROOT replaced by "ROOT" and line breaks by spaces.  The
;; position of a warning is left out: an expansion moves the text after
;; it, and what is compared between two compilations of a file (the
;; original and its expansion) is which warnings they give, not where.
;; The .elc files go to ELC, off the load path: a library a file requires
;; is always loaded from its source, whatever was compiled before (or at
;; the same time, by another Emacs).

(require 'bytecomp)

(defvar pcx-elpa--root nil "The ROOT argument, as a directory name.")
(defvar pcx-elpa--file nil "The file being compiled, relative to ROOT.")
(defvar pcx-elpa--elc nil "The ELC argument, as a directory name.")

(defun pcx-elpa--dest (file)
  "Where the .elc of FILE (under ROOT) is written: under ELC."
  (let ((dest (expand-file-name (concat (file-relative-name file pcx-elpa--root) "c")
                                pcx-elpa--elc)))
    (make-directory (file-name-directory dest) t)
    dest))

(defun pcx-elpa--clean (string)
  "STRING on one line, with ROOT written as ROOT."
  (replace-regexp-in-string
   "[\t\n]+" " "
   (replace-regexp-in-string (regexp-quote pcx-elpa--root) "ROOT/" string t t)))

(defun pcx-elpa--log (string _position &optional _fill level)
  "Print the warning STRING of LEVEL (the byte compiler's log function)."
  (princ (format "W\t%s\t%s\t%s\t%s\n" pcx-elpa--file (or level :warning)
                 (pcx-elpa--clean (format "%S" byte-compile-current-form))
                 (pcx-elpa--clean string))))

(defun pcx-elpa--compile (rel)
  "Byte-compile ROOT/REL; print its warnings and its result."
  (let* ((pcx-elpa--file rel)
         (byte-compile-log-warning-function #'pcx-elpa--log)
         (ok (condition-case err
                 (byte-compile-file (expand-file-name rel pcx-elpa--root))
               (error
                (pcx-elpa--log (format "signal: %S" err) nil nil :error)
                nil))))
    (princ (format "R\t%s\t%s\n" rel (if ok "ok" "failed")))))

(defun pcx-elpa--lines (file)
  "The non-empty lines of FILE."
  (with-temp-buffer
    (insert-file-contents file)
    (split-string (buffer-string) "\n" t)))

(defun pcx-elpa-compile ()
  "Compile the files of the command line's LIST (see the commentary)."
  (let ((root (file-name-as-directory (pop command-line-args-left)))
        (files (pcx-elpa--lines (pop command-line-args-left)))
        (elc (file-name-as-directory (pop command-line-args-left)))
        (path (pcx-elpa--lines (pop command-line-args-left))))
    (setq pcx-elpa--root root
          pcx-elpa--elc elc
          byte-compile-dest-file-function #'pcx-elpa--dest
          load-path (append path load-path))
    (dolist (rel files)
      (pcx-elpa--compile rel))))

;;; elpa-compile.el ends here
