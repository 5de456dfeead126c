resource a "t" {
  x = 1

resource b "t" {
  y = 2
}
