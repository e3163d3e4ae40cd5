;;; gallery.el --- writes docs/gallery.md from corpus forms  -*- lexical-binding: t -*-

;; Run by gallery.sh (the meson test `gallery'):
;;   emacs -Q --batch -L cmd/tests -L cmd/tests/conformance -l gallery.el \
;;     -f gallery-main FORMS.txt CORPUS RECORDS.json OUT.md
;; FORMS.txt (testdata/examples/gallery/forms.txt) names each form by its
;; corpus file, the definition it stands in and its rank among the
;; outermost pcase-family forms of the definitions of that name.
;; RECORDS.json: `pcexpand --format=json' run on those files.
;;
;; Each form is found the way the output-quality benchmark finds the
;; corpus forms (pcxc-extract.el's walk of its file), paired with
;; pcexpand's record of it, and expanded by Emacs with only the pcase
;; family expanded (bench-output.el); both expansions are measured with
;; the benchmark's own functions.  OUT.md gets, for each form, its text,
;; pcexpand's output, Emacs's expansion and the figures.  Nothing here
;; depends on time or on symbol addresses: the same inputs give the same
;; file.

(require 'cl-lib)
(require 'subr-x)
(require 'bench-output)

;;;; The list of forms

(defun gallery--parse (text)
  "The entries of the forms list TEXT.
An entry line is NAME FILE DEFINITION N TITLE...; the lines after it
indented by two spaces are its note; NAME is the anchor of its section.
Lines starting with # are comments.  Each entry is a plist
\(:name :file :def :n :title :note)."
  (let ((entries '()))
    (dolist (line (split-string text "\n"))
      (cond
       ((or (string-prefix-p "#" line) (string-blank-p line)) nil)
       ((string-prefix-p "  " line)
        (unless entries (error "forms: a note line before any entry: %s" line))
        (let ((e (car entries)))
          (plist-put e :note (append (plist-get e :note)
                                     (list (string-trim line))))))
       ((string-match "\\`\\([^ ]+\\) +\\([^ ]+\\) +\\([^ ]+\\) +\\([0-9]+\\) +\\(.+\\)\\'"
                      line)
        (push (list :name (match-string 1 line) :file (match-string 2 line)
                    :def (intern (match-string 3 line))
                    :n (string-to-number (match-string 4 line))
                    :title (match-string 5 line) :note nil)
              entries))
       (t (error "forms: cannot read the line: %s" line))))
    (nreverse entries)))

;;;; Finding a form

(defun gallery--definition-lines (def)
  "(FIRST . LAST) lines of each top-level form of the buffer defining DEF.
A definition is a list whose second element is DEF or (quote DEF)."
  (let ((ranges '()))
    (goto-char (point-min))
    (while (progn (forward-comment (buffer-size)) (not (eobp)))
      (let* ((start (point))
             (form (read (current-buffer)))
             (name (and (consp form) (consp (cdr form)) (cadr form))))
        (when (or (eq name def)
                  (and (eq (car-safe name) 'quote) (eq (cadr name) def)))
          (push (cons (line-number-at-pos start) (line-number-at-pos (point)))
                ranges))))
    (nreverse ranges)))

(defun gallery--case-line-col (case)
  "(LINE . COL) of CASE's id FILE:LINE:COL."
  (let ((id (plist-get case :id)))
    (unless (string-match ":\\([0-9]+\\):\\([0-9]+\\)\\'" id)
      (error "gallery: case id without a place: %s" id))
    (cons (string-to-number (match-string 1 id))
          (string-to-number (match-string 2 id)))))

(defun gallery--file-cases (file rel)
  "The cases pcxc-extract.el collects from FILE (named REL), in text order."
  (let ((out (generate-new-buffer " *gallery-cases*"))
        (tsv (make-temp-file "gallery" nil ".tsv")))
    (unwind-protect
        (progn
          (let ((inhibit-message t)) (pcxc-extract-file file rel out))
          (with-current-buffer out (pcxc-write-file tsv (buffer-string)))
          (sort (pcxc-read-cases tsv)
                (lambda (a b)
                  (let ((pa (gallery--case-line-col a)) (pb (gallery--case-line-col b)))
                    (or (< (car pa) (car pb))
                        (and (= (car pa) (car pb)) (< (cdr pa) (cdr pb))))))))
      (kill-buffer out)
      (delete-file tsv))))

(defun gallery--find (entry corpus)
  "The case of ENTRY's form in CORPUS: the Nth form of its definitions."
  (let* ((rel (plist-get entry :file))
         (file (expand-file-name (concat rel ".gz") corpus))
         (ranges (with-temp-buffer
                   (pcxc-extract--insert file)
                   (emacs-lisp-mode)
                   (gallery--definition-lines (plist-get entry :def))))
         (inside (cl-remove-if-not
                  (lambda (c)
                    (let ((line (car (gallery--case-line-col c))))
                      (cl-some (lambda (r) (<= (car r) line (cdr r))) ranges)))
                  (gallery--file-cases file rel)))
         (case (nth (1- (plist-get entry :n)) inside)))
    (unless ranges
      (error "gallery: %s: no definition of %s" rel (plist-get entry :def)))
    (unless case
      (error "gallery: %s: %s has %d pcase-family forms, not %d" rel
             (plist-get entry :def) (length inside) (plist-get entry :n)))
    case))

;;;; Showing code

(defun gallery--rename-generated (form)
  "FORM with each uninterned symbol replaced by a fresh one named BASE<k>.
BASE is its name without trailing digits; k counts the distinct symbols
of that base in the order they are met, depth first."
  (let ((names (make-hash-table :test 'eq))
        (counts (make-hash-table :test 'equal)))
    (cl-labels
        ((rename (s)
           (or (gethash s names)
               (let* ((base (replace-regexp-in-string "[0-9]+\\'" "" (symbol-name s)))
                      (k (1+ (gethash base counts 0))))
                 (puthash base k counts)
                 (puthash s (make-symbol (format "%s%d" base k)) names))))
         (walk (x)
           (cond ((and (symbolp x) (bench-output--uninterned-p x)) (rename x))
                 ((consp x) (let ((a (walk (car x)))) (cons a (walk (cdr x)))))
                 ((and (vectorp x) (not (recordp x))) (vconcat (mapcar #'walk x)))
                 (t x))))
      (walk form))))

(defun gallery--print (form)
  "FORM as Emacs's pretty printer lays it out, generated names as #:NAME."
  (let ((print-gensym t) (print-circle nil) (print-length nil) (print-level nil)
        (print-escape-newlines t))
    (string-trim-right (pp-to-string (gallery--rename-generated form)))))

(defun gallery--untabify (line)
  "LINE with its leading tabs replaced by spaces (tab stops every 8 columns)."
  (if (not (string-match "\\`[ \t]+" line))
      line
    (let ((col 0))
      (dolist (c (string-to-list (match-string 0 line)))
        (setq col (if (eq c ?\t) (* 8 (1+ (/ col 8))) (1+ col))))
      (concat (make-string col ?\s) (substring line (match-end 0))))))

(defun gallery--dedent (text column)
  "TEXT whose first line starts at COLUMN (1-based), moved to column 1.
The other lines lose up to COLUMN - 1 leading blanks."
  (let ((lines (split-string text "\n")))
    (string-join
     (cons (car lines)
           (mapcar (lambda (l)
                     (let* ((l (gallery--untabify l))
                            (blanks (- (length l) (length (string-trim-left l " +")))))
                       (substring l (min blanks (1- column)))))
                   (cdr lines)))
     "\n")))

;;;; One form

(defun gallery--item (entry corpus table)
  "Plist of everything shown for ENTRY: texts and figures.
TABLE holds pcexpand's records (`bench-output--read-records')."
  (let* ((case (gallery--find entry corpus))
         (record (or (bench-output--take-record table case)
                     (error "gallery: no pcexpand record for %s" (plist-get case :id))))
         (emacs (bench-output-emacs-expansion case))
         (pcx (pcxc-read-whole (plist-get record :expansion)))
         (figures (if (eq (car-safe emacs) 'skip)
                      emacs
                    (bench-output-measure-pair case emacs pcx
                                               (bench-output--lexical-p case))))
         (col (cdr (gallery--case-line-col case))))
    (when (eq (car-safe figures) 'skip)
      (error "gallery: %s: %s" (plist-get case :id) (cdr figures)))
    (list :entry entry :line (car (gallery--case-line-col case))
          :head (car (plist-get case :form))
          :text (gallery--dedent (plist-get record :text) col)
          :pcx (gallery--dedent (plist-get record :expansion) col)
          :emacs (gallery--print emacs)
          :source (let ((sd (bench-output--size-depth (plist-get case :form))))
                    (list :size (car sd) :depth (cdr sd)))
          :figures figures)))

;;;; The page

(defun gallery--number-word (n)
  "N in words when small, else in digits."
  (or (nth n '("no" "one" "two" "three" "four" "five" "six" "seven" "eight"
               "nine" "ten" "eleven" "twelve"))
      (number-to-string n)))

(defconst gallery--rows
  '(("size (conses + atoms)" :size)
    ("nesting depth" :depth)
    ("temporaries (generated names bound)" :temps)
    ("byte code: code bytes" :bytes)
    ("byte code: constants" :constants)
    ("byte code: `make-closure` calls" :closures)
    ("byte code: `switch` (jump tables)" :switches))
  "The figures shown for each form: label and key in bench-output's plists.")

(defun gallery--figure (item side key)
  "The figure KEY of ITEM's SIDE (:pcx or :emacs)."
  (plist-get (plist-get (plist-get item :figures) side) key))

(defun gallery--ratio (p e)
  "P / E with two decimals, or a dash when E is 0."
  (if (zerop e) "-" (format "%.2f" (/ (float p) e))))

(defun gallery--code-block (text)
  "TEXT as a fenced Emacs Lisp block."
  (format "```elisp\n%s\n```\n" text))

(defun gallery--insert-item (k item)
  "Insert the section of ITEM, the Kth form."
  (let* ((e (plist-get item :entry)))
    (insert (format "<a id=\"%s\"></a>\n\n## %d. %s\n\n" (plist-get e :name) k
                    (plist-get e :title)))
    (insert (format "`%s` in `%s`, line %d: `%s`.\n\n" (plist-get e :file)
                    (plist-get e :def) (plist-get item :line) (plist-get item :head)))
    (when (plist-get e :note)
      (insert (string-join (plist-get e :note) "\n") "\n\n"))
    (insert "Source:\n\n" (gallery--code-block (plist-get item :text)) "\n")
    (insert "pcexpand:\n\n" (gallery--code-block (plist-get item :pcx)) "\n")
    (insert "Emacs " emacs-version ":\n\n"
            (gallery--code-block (plist-get item :emacs)) "\n")
    (insert "| | source | pcexpand | Emacs | ratio |\n|---|---:|---:|---:|---:|\n")
    (dolist (row gallery--rows)
      (let ((p (gallery--figure item :pcx (cadr row)))
            (m (gallery--figure item :emacs (cadr row))))
        (insert (format "| %s | %s | %d | %d | %s |\n" (car row)
                        (or (plist-get (plist-get item :source) (cadr row)) "")
                        p m (gallery--ratio p m)))))
    (insert "\n")))

(defun gallery--insert-summary (items)
  "Insert the table of contents of ITEMS with their sizes and code bytes."
  (insert "| | form | size: source, pcexpand, Emacs | code bytes: pcexpand, Emacs |\n"
          "|---|---|---|---|\n")
  (cl-loop for item in items for k from 1
           do (let ((e (plist-get item :entry)))
                (insert (format "| %d | [%s](#%s) `%s` | %d, %d, %d | %d, %d |\n" k
                                (plist-get e :title) (plist-get e :name)
                                (plist-get e :def) (plist-get (plist-get item :source) :size)
                                (gallery--figure item :pcx :size)
                                (gallery--figure item :emacs :size)
                                (gallery--figure item :pcx :bytes)
                                (gallery--figure item :emacs :bytes)))))
  (let ((sum (lambda (side key) (cl-loop for i in items sum (gallery--figure i side key)))))
    (insert (format "| | all %d | %d, %d, %d | %d, %d |\n\n" (length items)
                    (cl-loop for i in items sum (plist-get (plist-get i :source) :size))
                    (funcall sum :pcx :size) (funcall sum :emacs :size)
                    (funcall sum :pcx :bytes) (funcall sum :emacs :bytes)))))

(defun gallery--insert-header (forms-file n)
  "Insert the page's title and what the page is.
FORMS-FILE lists the N forms."
  (insert "# Gallery: corpus forms, pcexpand's output and Emacs's\n\n"
          "<!-- Generated by cmd/tests/gallery.sh from " forms-file
          "; do not edit. -->\n\n")
  (let ((start (point)))
    (insert (capitalize (gallery--number-word n))
            " outermost pcase-family forms of Emacs " emacs-version
            "'s own Lisp sources, each shown three ways: as written; as pcexpand"
            " writes it (the default mode, as `pcexpand FILE` prints it inside the"
            " whole file); and as Emacs " emacs-version " expands it with"
            " `macroexpand-all`, only the pcase family expanded and other macros"
            " left as written.  Emacs's generated (uninterned) names are shown as"
            " `#:NAME`, numbered in order of appearance; its expansion has no"
            " comments, since the reader drops them.\n\n"
            "The figures are those of the output-quality benchmark"
            " ([benchmarks.md](benchmarks.md)): size counts conses and atoms, the"
            " user's code included; byte code is each expansion compiled by"
            " Emacs's byte compiler in a lambda taking its free variables; the"
            " ratio is pcexpand's figure over Emacs's.  That both expansions"
            " mean the same is checked elsewhere: these forms are among the"
            " corpus forms of the test `conformance-corpus`, which evaluates"
            " pcexpand's expansion against Emacs's on many inputs.\n\n"
            "The test `gallery` (suite `bench`) writes this page again from the"
            " corpus and fails on any difference.  After a change to the output,"
            " `cmd/tests/gallery.sh build/cmd/pcexpand /usr/share/emacs/30.1/lisp"
            " --record` writes it anew.\n\n")
    (let ((fill-column 72)) (fill-region start (point)))))

(defun gallery-main ()
  "Command-line entry: FORMS.txt CORPUS RECORDS.json OUT.md."
  (setq-default indent-tabs-mode nil)
  (setq backtrace-on-error-noninteractive nil)
  (let* ((args command-line-args-left)
         (max-lisp-eval-depth (max max-lisp-eval-depth 20000))
         (entries (gallery--parse (pcxc-file-string (nth 0 args))))
         (corpus (file-name-as-directory (nth 1 args)))
         (table (bench-output--read-records (nth 2 args)))
         (items (mapcar (lambda (e) (gallery--item e corpus table)) entries)))
    (setq command-line-args-left nil)
    (with-temp-buffer
      (gallery--insert-header "testdata/examples/gallery/forms.txt" (length items))
      (gallery--insert-summary items)
      (cl-loop for item in items for k from 1 do (gallery--insert-item k item))
      (delete-trailing-whitespace)
      (goto-char (point-max))
      (delete-blank-lines)
      (pcxc-write-file (nth 3 args) (buffer-string)))
    (princ (format "gallery: %d forms\n" (length items)))))

(provide 'gallery)

;;; gallery.el ends here
