;;; comments-of-merged-clauses.el --- pcexpand golden  -*- lexical-binding: t -*-
;; Case: comments-of-merged-clauses (testdata/goldens/manifest.yaml); do not edit.
;; Options: width=80 gensyms=rename

(cond
 ((eq status 'unauthorized)       ; 401
  (authenticate (list (list 'user (list 'name)))))
 ;; Refused: authorizing will not help.
                                        ; 404
 ;; Not found.
                                        ; 410
 ;; No longer there.
 ((memq status '(forbidden not-found gone)) ; 403
  t)
 ((eq status 'proxy-authentication-required) ; 407
  (authenticate 'proxy)))
