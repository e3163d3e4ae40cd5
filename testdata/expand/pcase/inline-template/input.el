;; define-inline's inline-quote: a pcase whose `,' holes are code
;; (subject, bodies) is expanded; one with a hole in a pattern is kept,
;; since the pattern is filled in where the function is inlined.
(require 'inline)
(define-inline pcx-it-anon-p (face)
  (inline-quote (and (consp ,face)
                     (pcase (car ,face)
                       ((pred keywordp) t)
                       ('foreground-color t)
                       ('background-color t)))))
(define-inline pcx-it-kind (x dflt)
  (inline-quote (pcase ,x ((pred consp) 'pair) ('nil ,dflt) (_ 'atom))))
(define-inline pcx-it-get (x)
  (inline-quote (pcase ,x (`(,a . ,_) a) (_ 'none))))
(defun pcx-it-all ()
  (list (pcx-it-anon-p '(:foo)) (pcx-it-anon-p '(foreground-color))
        (pcx-it-anon-p '(bar)) (pcx-it-anon-p 'x)
        (pcx-it-kind '(1 . 2) 'd) (pcx-it-kind nil 'd) (pcx-it-kind 3 'd)
        (funcall #'pcx-it-kind nil 'e) (funcall #'pcx-it-anon-p '(:k))))
