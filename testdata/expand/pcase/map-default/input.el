(pcase x
  ((map ('b y 42)) y))
