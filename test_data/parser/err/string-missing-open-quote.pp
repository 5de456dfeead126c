resource r "a:b:C" {
  prefix = web-server"
  description = The region to deploy into"
  ok = "fine"
}
y = foo "bar
