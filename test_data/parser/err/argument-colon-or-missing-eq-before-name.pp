resource n "random:index/randomInteger:RandomInteger" {
  min: 1
  max   maxValue
  options {
    range  length(["a", "b"])
  }
  seed = f(x,
    y) z
}
