resource site "aws:s3/bucket:Bucket" {
  policy = <<EOT
{
  "Version": "2012-10-17"
}

  acl = "private"
}

resource other "aws:s3/bucket:Bucket" {
  nested {
    script = << SH
echo hello
  }
}

output name {
  value = <<-EOT
    text

}

resource last "aws:s3/bucket:Bucket" {
  acl = "private"
}
