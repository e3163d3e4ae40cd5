;;; shared-body-circular-constant.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: shared-body-circular-constant (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(let* ((pcx--goto0 nil)
       (pcx--res0 (let ((pcx--x0 (car-safe x)))
                    (cond
                     ((eq pcx--x0 'a)
                      (let ((pcx--x1 (cdr x)))
                        (if (equal (cdr-safe pcx--x1) '(c))
                            (let ((b (car pcx--x1))) b)
                          (setq pcx--goto0 t))))
                     ((eq pcx--x0 'd)
                      (let ((pcx--x1 (cdr x)))
                        (if (and (consp pcx--x1) (null (cdr pcx--x1)))
                            (let ((e (car pcx--x1))) e)
                          (setq pcx--goto0 t))))
                     ((consp x) (setq pcx--goto0 t))
                     ((vectorp x)
                      (if (eql (length x) 1)
                          (let ((c (aref x 0))) c)
                        (setq pcx--goto0 t)))
                     (t (setq pcx--goto0 t))))))
  (if pcx--goto0
      (list 'other
            (g 1 2 3)
            (h 4 5 6)
            (i 7 8 9)
            '#1=(a b c d e f g h i j k l m n o p . #1#))
    pcx--res0))
