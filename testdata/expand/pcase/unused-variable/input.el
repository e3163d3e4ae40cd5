(pcase x
  (`(,key ,value ,_ignored) key))
