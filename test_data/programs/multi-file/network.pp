# A program of three files sharing one root scope.

resource logs "demo:storage/bucket:Bucket" {
  name = "${prefix}-logs"
  tags = commonTags
}

region = regionFromStorage
