containers = [{
  name  = "web"
  image = "nginx"
]
policy = toJSON({
  Statement = [{
    Effect = "Allow"
  }]
)
args = f([1, 2)
