(each typed std 1.5 [] (1) nil)
