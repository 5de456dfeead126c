resource a "t" {
  options { protect = true }
    x = 1
}
}
