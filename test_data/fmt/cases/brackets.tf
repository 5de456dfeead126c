a = [ 1 , 2 ]
b = ( x )
c = foo ( x , y )
d = a [0]
e = {a=1,b=2}
f = {}
g = a [*].b
h = a.*.b
i = f(x ...)
j = [ ]
k = foo()[ 0 ]
l = "x"[0]
m = { }
n = a . b . c
