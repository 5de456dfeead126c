config prefix string {
  default = "app"
}

commonTags = {
  project = prefix
}

output assetsArn {
  value = assets.arn
}
