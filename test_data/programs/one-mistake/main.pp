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

# `:` for `=` (as YAML writes it), and `=` missing before a reference: the arguments are
# kept, so the block is not also missing them.
resource colon "demo:storage/bucket:Bucket" {
  name: prefix
  acl   aclValue
}

aclValue = "private"

# `options` misspelt: reported there, and its `range` still makes the resource ranged.
resource optioned "demo:storage/bucket:Bucket" {
  option {
    range = 2
  }
  name = "${prefix}-${range.value}"
}

output firstOptioned {
  value = optioned[0].name
}

# A `}` missing before the `]` of a list of objects: one error, at the `]`.
output rules {
  value = [{
    port = 80
  ]
}

# A `]` typed inside an object: one error, at the `]`; the object keeps its other keys.
output cidrs {
  value = {
    cidr = "0.0.0.0/0"]
    name = "web"
  }
}

output cidrName {
  value = cidrs.name
}

# Terraform's `variable` for `config`: ignored, with what PCL writes instead.
variable "replicas" {
  default = 2
}

# Terraform's nested block for a map or object input: one error, with `tags = {` as the fix;
# the quoted keys inside are one mistake, not one error each.
resource blockTags "demo:storage/bucket:Bucket" {
  name = "tagged"
  tags {
    "team" = "infra"
    "env"  = "dev"
  }
}

# A string whose opening quote is missing: one error over the words and the quote, not an
# undefined variable for the words.
resource unquoted "demo:storage/bucket:Bucket" {
  name = web-server"
}

# An object's `{` missing after `=`: one error, and its lines are the object's, not the
# resource's attributes.
resource braceless "demo:storage/bucket:Bucket" {
  name = "braceless"
  tags =
    team = "infra"
  }
}

# A string broken over two lines: one error at the break; the second line is not read as code.
resource twoLines "demo:storage/bucket:Bucket" {
  name = "${prefix}-
bucket"
}

# An interpolation whose `}` is missing before the next `${`: one error, and the text and the
# interpolation after it are the string's, not an invalid `$` and an unterminated string.
resource interpolated "demo:storage/bucket:Bucket" {
  name = "${prefix-${aclValue}"
}

# A label whose closing quote is missing before the next label: one error, and the block
# keeps its two labels.
config "replicas "int" {
  default = 2
}

output replicaCount {
  value = replicas
}

# A space between `<<` and a heredoc's marker: one error, and it is still the heredoc.
output spaced {
  value = << EOT
text
EOT
}

# A heredoc whose closing marker is misspelt: one error at its `<<POLICY`, and the heredoc
# ends at the misspelt marker, so the lines after it are the program's, not the heredoc's.
output policy {
  value = <<POLICY
allow
POLCY
}

output afterPolicy {
  value = prefix
}

# A block header whose `{` is missing: one error at the header's end, and the lines below, up
# to the `}` back at its indentation, are its body, so the resource is still declared.
resource headerless "demo:storage/bucket:Bucket"
  name = "headerless"
}

output headerlessName {
  value = headerless.name
}

# A nested block whose `{` is missing: one error at its header's end, and the lines below, up
# to the `}` back at its indentation, are its body; the resource's lines after it are its own.
resource optionless "demo:storage/bucket:Bucket" {
  options
    protect = true
  }
  name = "optionless"
}

output optionlessName {
  value = optionless.name
}

# An interpolation written inside an interpolation's expression: one error at the inner `${`,
# and its expression is read as if in parentheses, so `prefix` is used and `join` called.
output shouted {
  value = "${join("-", [${prefix}, "site"])}"
}

# A heredoc whose closing line is missing: one error at its `<<EOT`, and the heredoc ends
# before the next argument, so the lines after it are the program's, not the heredoc's.
resource unclosedDoc "demo:storage/bucket:Bucket" {
  name = <<EOT
unclosed
  tags = {}
}

output unclosedDocName {
  value = unclosedDoc.name
}

# A `}` missing in a block written without indentation: one error where it is missing, before
# the next top-level block's header, and that block is the program's, not nested in this one.
resource flat "demo:storage/bucket:Bucket" {
name = "flat"

output flatName {
value = flat.name
}
