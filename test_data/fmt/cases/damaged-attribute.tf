a   =   1
b = = 2
c   =   3
block {
  d   =   4
  e = [1,
  f =    5
}
g   =   6
