a = [for k, v in m: k => v]
b = {for v in m: v}
c = [for v in m: v...]
