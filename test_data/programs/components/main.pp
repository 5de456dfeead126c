# Components: each a program of its own, with config inputs and outputs.

resource logs "demo:storage/bucket:Bucket" {
  name = "logs"
}

component web "./app" {
  siteName = "web"
  logsArn  = logs.arn
}

component api "./app" {
  siteName = "api"
  replicas = "many"
  sizeGB   = 3
}

component fleet "./app" {
  options {
    range = 2
  }
  siteName = "fleet-${range.value}"
}

component noInputs "./app" {
}

component missing "./nowhere" {
}

component self "." {
}

component sourceless {
  token  = "demo:index:Site"
  domain = "example.com"
}

component withToken "./app" {
  token    = "demo:index:Site"
  siteName = "x"
}

output webUrl {
  value = web.url
}

output fleetUrls {
  value = fleet[*].url
}

output unknownOutput {
  value = web.address
}
