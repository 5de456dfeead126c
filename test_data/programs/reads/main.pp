# read blocks: an existing resource by id and its state inputs.

read existing "demo:storage/bucket:Bucket" {
  id   = "bucket-123"
  name = "existing"
}

existingArn = existing.arn

read noId "demo:storage/bucket:Bucket" {
  name = "x"
}

read notAStateInput "demo:storage/bucket:Bucket" {
  id     = "b"
  sizeGb = 1
}

read providerRead "pulumi:providers:demo" {
  id = "p"
}

read componentRead "demo:index:Site" {
  id = "s"
}
