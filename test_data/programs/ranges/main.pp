# Every kind of range, and the type each gives the resource.

config enabled bool {
  default = true
}

config names "list(string)" {
  default = ["a", "b"]
}

config anything {
}

resource conditional "demo:storage/bucket:Bucket" {
  options {
    range = enabled
  }
  name = "conditional"
}

resource counted "demo:storage/bucket:Bucket" {
  options {
    range = 3
  }
  name = "counted-${range.value}"
}

resource listed "demo:storage/bucket:Bucket" {
  options {
    range = names
  }
  name = "listed-${range.key}-${range.value}"
}

resource tupled "demo:storage/bucket:Bucket" {
  options {
    range = ["x", "y"]
  }
  name = range.value
}

resource mapped "demo:storage/bucket:Bucket" {
  options {
    range = { small = 1, large = 100 }
  }
  name   = range.key
  sizeGb = range.value
}

resource fromOutputs "demo:storage/object:Object" {
  options {
    range = listed[*].name
  }
  bucket = range.value
  key    = "k${range.key}"
}

resource dynamicRange "demo:storage/bucket:Bucket" {
  options {
    range = anything
  }
  name = range.value
}

resource notIterable "demo:storage/bucket:Bucket" {
  options {
    range = "abc"
  }
  name = "x"
}

resource boolHasNoRange "demo:storage/bucket:Bucket" {
  options {
    range = true
  }
  name = range.value
}

firstListed = listed[0].arn
smallArn = mapped["small"].arn
maybeArn = conditional.arn
