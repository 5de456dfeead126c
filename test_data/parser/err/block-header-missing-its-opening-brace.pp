config prefix string {
  default = "a"
}

resource bucket "aws:s3/bucket:Bucket"
  bucket = prefix
  acl = "private"
}

output name {
  value = bucket.id
}

resource nested "t"
  name = "n"
  options {
    x = 1
  }
}
