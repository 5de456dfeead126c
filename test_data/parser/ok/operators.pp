a = 1 + 2 * 3 - 4 / 5 % 6
b = x == y && y != z || !w
c = a < b && b <= c && c > d && d >= e
d = - -1 + !!true
e = -a.b[0]
f = 1 < 2 < 3
