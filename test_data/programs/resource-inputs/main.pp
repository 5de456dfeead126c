# Resource inputs checked against the schema of demo:storage/bucket:Bucket and friends.

config prefix string {
  default = "site"
}

# Clean: every input of the right type, enum value allowed, nested object complete.
resource site "demo:storage/bucket:Bucket" {
  name      = "${prefix}-site"
  acl       = "private"
  sizeGb    = 10
  versioned = true
  tags      = { team = "web" }
  website = {
    indexDocument = "index.html"
  }
  lifecycleRules = [{ days = 30, prefix = "logs/" }]
}

# Outputs are accepted by inputs that are not plain.
resource copy "demo:storage/bucket:Bucket" {
  name = site.name
  tags = site.tags
}

resource broken "demo:storage/bucket:Bucket" {
  name      = "broken"
  acl       = "public-write"
  sizeGb    = "ten"
  sizeGB    = 1
  versioned = site.arn == ""
  website = {
    errorDocumnet = "404.html"
  }
  lifecycleRules = [{ days = 1.5 }]
}

# Missing the required name: reported at the block's `{`.
resource unnamed "demo:storage/bucket:Bucket" {
  acl = "public-read"
}

# A discriminated union narrowed by its discriminator.
resource httpCheck "demo:network/healthCheck:HealthCheck" {
  check = {
    kind = "http"
    path = "/healthz"
    port = 8080
  }
}

resource badCheck "demo:network/healthCheck:HealthCheck" {
  check = {
    kind = "tcp"
    path = "/"
  }
}

# Neither member of the union: the message names each member once.
resource numberCheck "demo:network/healthCheck:HealthCheck" {
  check = 5
}

resource object "demo:storage/object:Object" {
  bucket  = site.name
  key     = "index.html"
  source  = fileAsset("./index.html")
  __logicalName = "index-object"
}

output endpoint {
  value = site.endpoint
}

output missingOutput {
  value = site.endpoint2
}

# A problem deep inside a literal is reported where it is, each one: the second rule lacks
# nothing but has a string for its days; the website lacks its index document.
resource nested "demo:storage/bucket:Bucket" {
  name = "nested"
  lifecycleRules = [
    { days = 30, prefix = "logs/" },
    {
      days   = "ninety"
      prefix = "tmp/"
    },
  ]
  website = {
    errorDocument = "404.html"
  }
}

# A property misspelt through an optional object: the unknown property, with its did-you-mean;
# a key that is no identifier is shown as an index in the path.
output misspeltThroughOptional {
  value = nested.website.indexDocumnt
}

resource oddKey "demo:storage/bucket:Bucket" {
  name = "odd-key"
  tags = { "app.kubernetes.io/name" = { x = 1 } }
}

# A single resource indexed as if ranged.
output indexedSingle {
  value = oddKey[0].name
}

# A required property misspelt inside an object literal: one error, at the misspelling (not
# a missing property at `website = {` and a warning at the key).
resource misspelt "demo:storage/bucket:Bucket" {
  name = "misspelt"
  website = {
    indexDocumnet = "index.html"
  }
}
