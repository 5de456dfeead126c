# One mistake each, reported once where it is written, without follow-on errors.

# The `=` of a local is missing: parsed as the local, so its uses stay defined.
prefix "web"

# `range` misspelt in options: reported there; the body's `range` and the indexing of the
# resource are read as if it were spelt right.
resource counted "demo:storage/bucket:Bucket" {
  options {
    rang = 2
  }
  name = "${prefix}-${range.value}"
}

output firstName {
  value = counted[0].name
}

# A required input misspelt: one error at the attribute, not also a missing one at the `{`.
resource misspelt "demo:storage/bucket:Bucket" {
  nmae = prefix
}

# A key given twice in an object: a warning at the second.
output tags {
  value = {
    owner = "me"
    team  = "infra"
    owner = "you"
  }
}

# An enum's value misspelt: the value it most likely means, as a fix.
resource acl "demo:storage/bucket:Bucket" {
  name = "acl"
  acl  = "privat"
}
