resource assets "demo:storage/bucket:Bucket" {
  name = "${prefix}-assets"
  tags = { project = commonTags.project, logs = logs.name }
}

regionFromStorage = region

logs = "a local that reuses a resource's name"
