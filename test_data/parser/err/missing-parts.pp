a = c ? : b
b = { = 1 }
c = [for in xs : x]
d = {for k, in m : k => v}
e = {for k, v in m : => v}
f = [for x in : x]
g = "%{ for in xs }x%{ endfor }"
