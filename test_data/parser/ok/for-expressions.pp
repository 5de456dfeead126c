a = [for v in xs : v * 2]
b = [for i, v in xs : "${i}=${v}" if v != null]
c = { for k, v in m : k => v }
d = { for i, v in xs : v => i... if i <= 2 }
e = {
  for k, v in m :
  k => v
}
