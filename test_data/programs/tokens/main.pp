# Token forms: full, canonical, short, provider, built-in pulumi resources, malformed.

resource full "demo:storage/bucket:Bucket" {
  name = "full"
}

resource canonical "demo:storage:Bucket" {
  name = "canonical"
}

resource component "demo::Site" {
  domain = "example.com"
}

resource provider "pulumi:providers:demo" {
  region = "eu-west-1"
}

resource stack "pulumi:pulumi:StackReference" {
  name = "org/project/stack"
}

stackOutputs = stack.outputs

resource malformed "demo:a:b:c" {
}

resource unknownPackage "nope:index:Thing" {
}

resource alsoUnknownPackage "nope:index:Other" {
}

resource unknownResource "demo:storage:Buckets" {
  name = "x"
}

resource noToken {
}
