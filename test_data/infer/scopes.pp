# Scopes: for variables shadow top-level names; range in ranged resources; hook args;
# recover's error; undefined names suggest the closest one.
items = ["a", "b"]
item = 42
shadowed = [for item in items : item]
outer = [for x in items : [for y in items : "${x}${y}${item}"]]
misspelled = itemz
functionAsValue = length
notAFunction = items(1)

resource counted "test:index:Thing" {
  name = "thing-${range.value}"
  options {
    range = 3
  }
}
resource listed "test:index:Thing" {
  name = "${range.key}: ${range.value}"
  options {
    range = items
  }
}
resource mapped "test:index:Thing" {
  name = "${range.key}=${range.value}"
  options {
    range = { a = 1, b = 2 }
  }
}
resource conditional "test:index:Thing" {
  name = range.value
  options {
    range = true
  }
}
resource notRanged "test:index:Thing" {
  name = range.value
}
resource badRange "test:index:Thing" {
  name = range.value
  options {
    range = "three"
  }
}
resource optionsCannotSeeRange "test:index:Thing" {
  options {
    range = 2
    dependsOn = [range.value]
  }
}
hook resource notify {
  command = ["echo", args.urn, args.name]
  onDryRun = args.urn
}
recovered = recover(secret(1), error)
recoverNeedsOutput = recover(1, 2)
errorOutside = error
hook notify resource {
  command = ["echo"]
}
hook error onFailure {
  command = ["page", args.urn]
  onDryRun = true
}
