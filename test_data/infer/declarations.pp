# Declarations: labels, block types, duplicate names, attributes blocks take or ignore.
resource oneLabel {
}
resource {
}
resource a "test:index:Thing" "extra" {
}
config {
}
output tooMany "string" "extra" {
  value = "x"
}
component {
}
hook justKind {
  command = ["x"]
}
pulumi "label" {
  requiredVersionRange = ">=3.0.0"
}
pulumi {
  requiredVersionRange = 3
}
package {
}
resourse misspelled "test:index:Thing" {
}
locals {
  a = 1
}
dup = 1
dup = 2
config dup string {}
output dup {
  value = dup
}
output dup {
  value = 2
}
config settings string {
  defualt = "x"
  description = "ok"
  nullable = "yes"
  secret = 1
  __logicalName = "${dup}"
  nested {
  }
}
output out {
  value = 1
  descripton = "typo"
}
resource withOptions "test:index:Thing" {
  options {
    protect = "maybe"
    dependsOn = dup
    retainOnDelet = true
    customTimeouts = { create = 5 }
    nested {
    }
  }
  options {
  }
  option {
  }
}
component sourceless {
}
component withSource "./dir" {
}
hook resource noCommand {
  onDryRun = "no"
}
usesPulumi = pulumi
