a = [for, foo]
b = {for = 1}
