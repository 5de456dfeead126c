resource d "kubernetes:apps/v1:Deployment" {
  spec = {
    selector = {
      matchLabels = { app = "web" }
    }}
    template = {
      metadata = { labels = { app = "web" } }
    }
  }
}
