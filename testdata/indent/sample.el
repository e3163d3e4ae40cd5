;;; sample.el --- pcase and cond* in context, for the indentation check  -*- lexical-binding: t -*-

;; Expanded by the whole pipeline (indent_gen --sites); every expansion is
;; then indented by Emacs and must not move.  The forms cover the places
;; where expansions land: defun bodies, let values, arguments after other
;; text on the line, deep nesting, comments inside replaced forms.

(defun sample-kind (x)
  ;; Classify X.
  (pcase x
    ;; Small numbers.
    ((pred integerp)
     ;; Tag it.
     (list 'int x))                     ; exact
    ((pred stringp) (intern x))
    (`(,a . ,b) (cons b a))
    (_ 'other)))

(defun sample-area (shape)
  (pcase-exhaustive shape
    (`(circle ,r) (* float-pi r r))
    (`(rect ,w ,h) (* w h))
    (`(square ,s) (* s s))))

(defun sample-sum (pairs)
  (let ((total 0))
    (pcase-dolist (`(,k . ,v) pairs)
      (when (numberp v)
        (setq total (+ total v)))
      (message "%s" k))
    total))

(defun sample-swap (cell)
  (pcase-let ((`(,a . ,b) cell)
              (`[,c ,d] (vector 1 2)))
    (list b a c d)))

(defun sample-nested (tree)
  (pcase tree
    (`(node ,left ,right)
     (+ (sample-nested left)
        (pcase right
          ((or 'nil `(leaf ,_)) 1)
          ((and `(node . ,_) (guard (> (length tree) 2))) 2)
          (_ 0))))
    (`(leaf ,value) value)
    ((pred vectorp) (aref tree 0))
    (_ (error "Bad tree: %S" tree))))

(defvar sample-table (list (pcase system-type ('gnu/linux "linux") ('darwin "mac")
                                  (_ "other"))
                           'more))

(defun sample-lambda ()
  (mapcar (pcase-lambda (`(,a ,b)) (+ a b)) '((1 2) (3 4))))

(defun sample-setq (x)
  (let (a b)
    (pcase-setq `(,a ,b) x)
    (list a b)))

(defun sample-star (x)
  (cond* ((match* `(,a ,b) x) (list a b))
         ;; Bind and keep going.
         ((bind* (y (car-safe x))))
         ((numberp y) (* 2 y))
         (t nil)))

(defun sample-long-strings (key)
  (pcase key
    ("a-rather-long-key-string-that-fills-the-line" "a rather long value string as well")
    ((or "short" "shorter" "shortest-of-them-all-but-still-long") 'short)
    (_ (format "unknown key %S with a message long enough to need breaking" key))))

(defun sample-local (tree)
  ;; Local definitions of cl-flet & co: bodies at +2 (Emacs 30).
  (pcase tree
    (`(node . ,kids)
     (cl-labels ((walk (k)
                   (if (consp k)
                       (mapcar #'walk (append k (list 'a-rather-long-marker-symbol)))
                     (list k 'another-rather-long-marker-symbol))))
       (walk kids)))
    (_ (cl-flet ((wrap (x) (list 'leaf x 'a-rather-long-marker-symbol 'and-one-more-symbol)))
         (wrap tree)))))

(defun sample-def-named (x)
  ;; A call whose name starts with "def" (Emacs 30: no spec of its own).
  (define-sample-thing x
                       (pcase x
                         ('alpha "the first letter of the alphabet, spelled out")
                         (_ (list x "anything else, as a list with this string")))))

;;; sample.el ends here
