# A static website: a bucket, one object per page, and the site's address as an output.

config siteName "string" {
  default     = "docs"
  description = "The name prefix of the bucket."
}

config pages "list(string)" {
  default = ["index.html", "404.html"]
}

resource siteBucket "aws:s3/bucket:Bucket" {
  bucket = "${siteName}-site"
  website = {
    indexDocument = "index.html"
    errorDocument = "404.html"
  }
  tags = { for key, value in commonTags : key => "${value}-${siteName}" }
}

resource pageObjects "aws:s3/bucketObject:BucketObject" {
  options {
    range     = length(pages)
    dependsOn = [siteBucket]
  }
  bucket      = siteBucket.id
  key         = pages[range.value]
  source      = fileAsset("./www/${pages[range.value]}")
  contentType = pages[range.value] == "404.html" ? "text/html; charset=utf-8" : "text/html"
}

commonTags = {
  project = "website"
  owner   = "platform"
}

output siteUrl {
  value = "http://${siteBucket.websiteEndpoint}"
}

output objectKeys {
  value = pageObjects[*].key
}
