(pcase x
  (`(,a ,@b) a))
