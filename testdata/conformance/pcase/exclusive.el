;;; exclusive.el --- Emacs's sets of built-in types per type predicate  -*- lexical-binding: t -*-
;; Usage: emacs -Q --batch -l exclusive.el [--check] FILE
;; Prints (or, with --check, compares with FILE) the table pcase uses to
;; decide that two type predicates are mutually exclusive
;; (`pcase--subtype-bitsets', pcase.md 3.5): one line per predicate, its
;; name and the leaf types it can be true on, sorted.  A bit is named by
;; the first (alphabetically) built-in type whose predicate has exactly
;; that bit.  pcexpand's table (core/match/know.c) is checked against the
;; stored file by test_dtree; this keeps the stored file Emacs's.

(require 'pcase)

(defun exclusive--leaf-names ()
  "Alist (BIT . NAME) naming each leaf bit by a type that owns it alone."
  (let ((names '()))
    (mapatoms
     (lambda (sym)
       (let* ((class (get sym 'cl--class))
              (pred (and (built-in-class-p class) (get sym 'cl-deftype-satisfies)))
              (bits (and pred (gethash pred pcase--subtype-bitsets))))
         (when (and bits (= (logcount bits) 1))
           (let ((old (assq bits names)))
             (if (not old)
                 (push (cons bits (symbol-name sym)) names)
               (when (string< (symbol-name sym) (cdr old))
                 (setcdr old (symbol-name sym)))))))))
    names))

(defun exclusive--table ()
  "The table as text."
  (let ((names (exclusive--leaf-names)) (rows '()))
    (maphash
     (lambda (pred bits)
       (let ((leaves '()) (i 0))
         (while (> bits 0)
           (when (= 1 (logand bits 1))
             (push (or (cdr (assq (ash 1 i) names)) (format "bit%d" i)) leaves))
           (setq bits (ash bits -1) i (1+ i)))
         (push (mapconcat #'identity (cons (symbol-name pred) (sort leaves #'string<)) " ")
               rows)))
     pcase--subtype-bitsets)
    (concat (mapconcat #'identity (sort rows #'string<) "\n") "\n")))

(let* ((check (equal (car command-line-args-left) "--check"))
       (file (car (last command-line-args-left)))
       (text (exclusive--table)))
  (setq command-line-args-left nil)
  (if (not check)
      (with-temp-file file (insert text))
    (let ((stored (with-temp-buffer (insert-file-contents file) (buffer-string))))
      (unless (equal stored text)
        (princ (format "exclusive: %s is not Emacs %s's table; it is:\n%s"
                       file emacs-version text))
        (kill-emacs 1))
      (princ (format "exclusive: %s is Emacs %s's table\n" file emacs-version)))))
