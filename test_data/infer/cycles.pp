# Cycles are reported once, at their first node, naming the whole cycle; their nodes are
# dynamic. Names bound by for are not references (unlike the reference implementation).
self = self + 1
a = b
b = c
c = a
x = [for x in [1, 2] : x]
usesCycle = a
#- other.pp
d = e
#- third.pp
e = d
