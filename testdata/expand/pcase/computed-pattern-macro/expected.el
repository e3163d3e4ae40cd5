;;; input.el --- pattern macros whose bodies compute the pattern, as in esh-var.el  -*- lexical-binding: t -*-

(pcase-defmacro my-index-range (start end)
  "Match a cons of two integers or nils; bind START and END to them."
  (list '\` (cons (list '\, `(and (or (pred integerp) (pred null)) ,start))
                  (list '\, `(and (or (pred integerp) (pred null)) ,end)))))

(pcase-defmacro my-one-of (&rest syms)
  "Match one of the symbols SYMS."
  (cons 'or (mapcar (lambda (s) (list 'quote s)) syms)))

(defun my--field-pattern (name)
  (list 'app (intern (format "my-get-%s" name)) name))

(pcase-defmacro my-fields (&rest names)
  "Match each field NAME through its accessor my-get-NAME."
  (let ((pats (mapcar #'my--field-pattern names)))
    (if (cdr pats) (cons 'and pats) (car pats))))

(defun my-get-a (x) (car-safe x))

(defun my-get-b (x) (cdr-safe x))

(defun ranges (x)
  (cond
   ((consp x)
    (let ((pcx--x0 (car x)) (pcx--x1 (cdr x)))
      (if (and (or (integerp pcx--x0) (null pcx--x0))
               (or (integerp pcx--x1) (null pcx--x1)))
          (let ((s pcx--x0) (e pcx--x1)) (list 'range s e))
        (let ((a (my-get-a x)) (b (my-get-b x))) (list 'fields a b)))))
   ((memq x '(red green)) (list 'color x))
   (t (let ((a (my-get-a x))) (list 'one a)))))
