a = [for x in y : x]
b = {for k,v in m : k=>v...}
c = [for x in [1, 2] : x if x>1]
d = [for x in[foo]: x]
e = [
  for x in y :
  x
]
