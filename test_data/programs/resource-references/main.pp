# A resource is a reference: it is the value of a property whose schema type is that resource
# (plain or not, alone, in a list or in a map), as Pulumi's binder has it; only its attributes
# are eventual.
resource site "demo:storage/bucket:Bucket" {
  name = "site"
}

resource logs "demo:storage/bucket:Bucket" {
  name = "logs"
}

resource holder "demo:index:Holder" {
  bucket    = site
  buckets   = [site, logs]
  bucketMap = { site = site, logs = logs }
  anyBucket = logs
}

# A resource of another type, or an attribute of one, is not a bucket.
resource wrong "demo:index:Holder" {
  bucket  = holder
  buckets = [site.name]
}

siteId = site.id
url    = call(site, "presign", { key = "index.html" })
