resource a "kubernetes:core/v1:Namespace" {
  options {
    protect = true
}
resource b "kubernetes:core/v1:Namespace" {
}
