(pcase x
  ((my-undeclared y) y))
