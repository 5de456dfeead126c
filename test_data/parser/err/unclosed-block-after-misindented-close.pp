resource a "aws:s3:Bucket" {
  tags = {
    x = "1"
}
  bucket = "b"
  acl = "private"

resource b "aws:s3:Bucket" {
  bucket = "c"
}
