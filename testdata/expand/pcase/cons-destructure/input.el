(defun area (shape)
  (pcase shape
    (`(rect ,w ,h) (* w h))
    (`(square ,s) (* s s))
    (`(circle ,r) (* 3 r r))))
