;;; api-defs.el --- pattern macros made by a definer macro that computes names  -*- lexical-binding: t -*-

;; As lsp-mode's lsp-interface does: the definer turns CamelCase names
;; into dashed words with regexps (under the ASCII case table, with
;; case-fold-search bound to nil), numbers what it makes with a global
;; counter, and defines one pattern macro per interface.

(defvar api-defs--made 0 "How many pattern macros were made.")

(defun api-defs--dashed (name)
  "NAME (a string in CamelCase) as dashed lower-case words."
  (let ((case-fold-search nil))
    (mapconcat #'downcase
               (split-string
                (replace-regexp-in-string
                 "\\([[:lower:]]\\)\\([[:upper:]]\\)" "\\1 \\2"
                 (replace-regexp-in-string
                  "\\([[:upper:]]\\)\\([[:upper:]][0-9[:lower:]]\\)" "\\1 \\2" name))
                "[^[:word:]0-9]+" t)
               "-")))

(defun api-defs--key (keyword)
  "The JSON key of KEYWORD (:text-edit -> \"textEdit\")."
  (let ((words (split-string (substring (symbol-name keyword) 1) "-")))
    (apply #'concat (car words) (mapcar #'capitalize-ascii (cdr words)))))

(defun capitalize-ascii (word)
  "WORD with its first letter in upper case."
  (if (string-match "\\`[a-z]" word)
      (concat (upcase (match-string 0 word)) (substring word 1))
    word))

(defmacro api-defs-interface (&rest interfaces)
  "Define a pattern macro per (NAME KEYWORD...) of INTERFACES."
  (with-case-table ascii-case-table
    (cons 'progn
          (mapcar
           (lambda (spec)
             (setq api-defs--made (1+ api-defs--made))
             (let ((macro (intern (concat "api-" (api-defs--dashed (symbol-name (car spec)))))))
               `(pcase-defmacro ,macro (&rest keys)
                  ,(format "Match a %s (pattern macro %d)." (car spec) api-defs--made)
                  (cons 'and
                        (cons '(pred listp)
                              (mapcan (lambda (k)
                                        (unless (memq k ',(cdr spec))
                                          (error "Unknown key %S of %s" k ',(car spec)))
                                        (let ((key (api-defs--key k)))
                                          (list (list 'pred (list 'lambda '(alist)
                                                                  (list 'assoc key 'alist)))
                                                (list 'app
                                                      (list 'lambda '(alist)
                                                            (list 'cdr (list 'assoc key 'alist)))
                                                      (intern (substring (symbol-name k) 1))))))
                                      keys))))))
           interfaces))))

(api-defs-interface
 (TextEdit :range :new-text)
 (URLPathABC1x :full-path :query-string))

(provide 'api-defs)
