# hash comment
// slash comment
/* block
   comment */
a = 1 # trailing hash
b = 2 // trailing slash
c = /* inline */ 3
d = [
  1, # inside a tuple
  2,
]
block { # after a brace
  e = 4
}
