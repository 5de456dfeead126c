a = 1+2*3
b = x-1
c = -1
d = x * -1
e = (-x)
f = !x
g = ! x
h = a==b&&c!=d||e>=f
i = x?1:-2
j = [-1, - 2]
k = a%2
l = x - -y
m = 10 /2
