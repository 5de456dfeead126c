resource r "a:b:C" {
  labels {
    "app" = "web"
    "tier" = "front"
  }
}
"top" = 1
"other" = 2
