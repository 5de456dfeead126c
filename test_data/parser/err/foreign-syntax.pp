a = 'str'
b = `str`
c = x & y
d = x ** 2
e = x | y
