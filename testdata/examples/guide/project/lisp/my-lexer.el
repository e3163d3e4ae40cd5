;;; my-lexer.el --- an example  -*- lexical-binding: t -*-

(defun my-lexer--dispatch (tok)
  (pcase tok
    (`(num ,n) n)
    (`(str ,s) (length s))
    (_ 0)))

(provide 'my-lexer)
