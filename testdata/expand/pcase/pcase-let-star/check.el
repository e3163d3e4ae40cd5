(each split "a b c" "" "x" "ab cd ef" 5)
