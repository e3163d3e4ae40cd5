(each kind-a std)
(each kind-b std)
(each kind-c std)
