(each area std (rect 2 3) (square 4) (circle 2) (rect 2) (square 1 2) (circle))
