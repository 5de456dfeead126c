a = foo[*
b = 1
