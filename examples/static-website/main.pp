# A static website: a bucket, one object per page, and the site's address as an output.
# The aws tokens are described by examples/schemas/aws-6.0.0.json.

config siteName "string" {
  default     = "docs"
  description = "The name prefix of the bucket."
}

config pages "list(string)" {
  default = ["index.html", "404.html"]
}

# Bucket names are global: the account ID keeps this one from colliding with another account's.
caller = invoke("aws:index/getCallerIdentity:getCallerIdentity", {})

resource siteBucket "aws:s3/bucket:Bucket" {
  bucket = "${siteName}-site-${caller.accountId}"
  acl    = "public-read"
  website = {
    indexDocument = "index.html"
    errorDocument = "404.html"
  }
  corsRules = [{
    allowedMethods = ["GET", "HEAD"]
    allowedOrigins = ["*"]
    maxAgeSeconds  = 3600
  }]
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
