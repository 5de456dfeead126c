config siteName string {
}

config replicas int {
  default = 1
}

config logsArn string {
  default = ""
}

resource bucket "demo:storage/bucket:Bucket" {
  name = "${siteName}-site"
  tags = { logs = logsArn, replicas = "${replicas}" }
}

output url {
  value = bucket.endpoint
}

output bucketName {
  value = bucket.name
}
