config "bucketName" "string" {
  default = "my-bucket"
  description = "The bucket's name"
}

resource bucket "aws:s3/bucket:Bucket" {
  bucket = bucketName
  website = {
    indexDocument = "index.html"
  }
  options {
    protect = true
    dependsOn = [other]
  }
}

resource files "aws:s3/bucketObject:BucketObject" {
  options {
    range = length(readDir("./www"))
  }
  bucket = bucket.id
  key = readDir("./www")[range.value]
  source = fileAsset("./www/${readDir("./www")[range.value]}")
}

bucketEndpoint = "http://${bucket.websiteEndpoint}"

output endpoint {
  value = bucketEndpoint
}

component web "./web" {
  name = "site"
}

pulumi {
  requiredVersionRange = ">=3.0.0"
}
