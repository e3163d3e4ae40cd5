(each classify std "ab:12" "x=3" "yes" "n" "maybe" "42" "" "AB:1")
(each shadow std "N" "M" "second" "x=M" "x=1" "12")
(calls (toto))
