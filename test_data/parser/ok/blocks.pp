resource bucket "aws:s3:Bucket" {
  acl = "private"
}

block "label" ident {
}

empty {}

nested {
  inner "x" {
    deep {
      a = 1
    }
  }
}
