(prelude (defvar failed nil) (advice-add 'message :override #'list '((name . pcx-verify))))
(each handle std (error "e") (fatal "f") (error) (fatal 1 2))
