(pcase x
  (`(quote ,v) v)
  (`(1.5 ,s "s" :k) s)
  (`(,'lit ,y) y)
  (`(a (b ,z)) z)
  (`(1 . 2) 'pair))
