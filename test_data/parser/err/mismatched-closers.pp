tags = {
  cidrs = "0.0.0.0/0"]
  name  = "web"
}
servers = [
  { name = "web" }},
  { name = "db" }
]
policy = toJSON({
  Version = "2012-10-17"
}})
