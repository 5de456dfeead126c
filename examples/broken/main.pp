# The same kind of program with the mistakes people make while typing; `pcl parse` reports each
# one once, with its range, and still sees the rest of the file.

resource bucket "aws:s3/bucket:Bucket" {
  bucket = "my-bucket
  acl    = 'private'
  tags = {
    env = "dev" team = "web"
  }
}

resource object "aws:s3/bucketObject:BucketObject" {
  bucket = bucket.id
  key    = "index.html"
  size   = 10 ** 2
  key    = "error.html"
}

output url {
  value = "http://${bucket.websiteEndpoint"
}
