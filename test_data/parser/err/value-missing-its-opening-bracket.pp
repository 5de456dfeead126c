x = [
  1,
]
resource r "t" {
  a =
    b = {
      c = 1
    }
    d = "x"
  }
  e = 2
}
r = [
  1
]
resource s "t" {
  inputs =
    "alpha",
    "beta"
  ]
  after = 1
  skipped =
  next = 2
}
