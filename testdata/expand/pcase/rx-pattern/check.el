(each scan std "123" "v12" "xv3" "abca" "abcb" "yes" "maybe" "" "12a")
