resource site "aws:s3/bucket:Bucket" {
  website
    indexDocument = "index.html"
  }
  acl = "private"
}

resource rules "aws:s3/bucket:Bucket" {
  acl = "private"
  rule "expire" {
    days = 30
    filter
      prefix = "logs/"
    }
  }
}
