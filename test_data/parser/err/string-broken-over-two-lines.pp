x = "abc
y = 1
z = "a
b"
w = 2
