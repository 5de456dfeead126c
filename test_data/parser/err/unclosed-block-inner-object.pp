resource "ns" "kubernetes:core/v1:Namespace" {
  metadata = {
    name = "x"
    labels = {
      app = "web"
  }
}

resource "cm" "kubernetes:core/v1:ConfigMap" {
  data = {
    key = "value"
  }
}
