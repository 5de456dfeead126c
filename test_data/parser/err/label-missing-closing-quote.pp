config "replicas "int" {
  default = 2
}
resource "bucket "aws:s3/bucket:Bucket" {
  name = "b"
}
y = 2
