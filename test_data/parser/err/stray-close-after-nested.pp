resource bar "kubernetes:core/v1:Pod" {
  metadata = {
    name = "bar"
  }
  }
  spec = {
    containers = [{
      name = "nginx"
    }]
  }
}
