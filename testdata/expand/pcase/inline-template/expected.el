;; define-inline's inline-quote: a pcase whose `,' holes are code
;; (subject, bodies) is expanded; one with a hole in a pattern is kept,
;; since the pattern is filled in where the function is inlined.
(require 'inline)
(define-inline pcx-it-anon-p (face)
  (inline-quote (and (consp ,face)
                     (let ((pcx--val0 (car (\, face))))
                       (cond
                        ((keywordp pcx--val0) t)
                        ((eq pcx--val0 'foreground-color) t)
                        ((eq pcx--val0 'background-color) t))))))
(define-inline pcx-it-kind (x dflt)
  (inline-quote (let ((pcx--val0 (\, x)))
                  (cond
                   ((consp pcx--val0) 'pair)
                   ((null pcx--val0) (\, dflt))
                   (t 'atom)))))
(define-inline pcx-it-get (x)
  (inline-quote (pcase ,x (`(,a . ,_) a) (_ 'none))))
(defun pcx-it-all ()
  (list (pcx-it-anon-p '(:foo)) (pcx-it-anon-p '(foreground-color))
        (pcx-it-anon-p '(bar)) (pcx-it-anon-p 'x)
        (pcx-it-kind '(1 . 2) 'd) (pcx-it-kind nil 'd) (pcx-it-kind 3 'd)
        (funcall #'pcx-it-kind nil 'e) (funcall #'pcx-it-anon-p '(:k))))
