(defun same-pair-p (p)
  (if (and (consp p) (eql (car p) (cdr p))) (let ((x (car p))) (ignore x) t)))
