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
  (let* ((pcx--pcase-0 (lambda (s e) (list 'range s e)))
         (pcx--pcase-1 (lambda () (list 'color x)))
         (pcx--pcase-2 (lambda ()
                         (let* ((pcx--x0 (my-get-a x)) (pcx--x1 (my-get-b x)))
                           (let ((a pcx--x0) (b pcx--x1)) (list 'fields a b)))))
         (pcx--pcase-3 (lambda ()
                         (cond
                          ((eq x 'red) (funcall pcx--pcase-1))
                          ((eq x 'green) (funcall pcx--pcase-1))
                          (t (funcall pcx--pcase-2)))))
         (pcx--pcase-4 (lambda (pcx--x2)
                         (let* ((pcx--x3 (cdr-safe x)))
                           (cond
                            ((integerp pcx--x3)
                             (funcall pcx--pcase-0 pcx--x2 pcx--x3))
                            ((null pcx--x3)
                             (funcall pcx--pcase-0 pcx--x2 pcx--x3))
                            ((null pcx--x2)
                             (if (null pcx--x3)
                                 (funcall pcx--pcase-3)
                               (funcall pcx--pcase-2)))
                            (t (funcall pcx--pcase-2)))))))
    (cond
     ((consp x)
      (let* ((pcx--x2 (car-safe x)))
        (cond
         ((integerp pcx--x2) (funcall pcx--pcase-4 pcx--x2))
         ((null pcx--x2) (funcall pcx--pcase-4 pcx--x2))
         ((null pcx--x2) (funcall pcx--pcase-3))
         (t (funcall pcx--pcase-2)))))
     ((memq x '(green red)) (funcall pcx--pcase-1))
     (t (let* ((pcx--x0 (my-get-a x))) (let ((a pcx--x0)) (list 'one a)))))))
