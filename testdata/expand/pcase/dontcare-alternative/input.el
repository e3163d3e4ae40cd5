;; Emacs's own sources write (or PAT pcase--dontcare): PAT is assumed to
;; match, its tests run only for their effects.
(pcase form
  (`(condition-case . ,(or `(,err ,body . ,handlers) pcase--dontcare))
   (list err body handlers))
  (_ form))
