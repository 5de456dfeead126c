resource numbers "random:index/randomInteger:RandomInteger" {
  options {
    range = 2

  min = 1
  max = range.value
}
resource d "kubernetes:apps/v1:Deployment" {
  spec = {
    selector = {
      matchLabels = { app = "web" }

    template = {
      metadata = { labels = { app = "web" } }
    }
  }
}
