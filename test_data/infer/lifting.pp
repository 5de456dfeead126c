# Eventuals: an expression that uses an output becomes an output; secret() makes one.
config password string {
  secret = true
}
plain = "x"
hidden = secret(plain)
concatenated = "${hidden}-suffix"
compared = hidden == "x"
added = secret(1) + 2
inList = [hidden, plain]
inObject = { value = hidden }
attribute = secret({ a = 1 }).a
indexed = secret([1, 2])[0]
dynamicIndex = secret([1, 2])[length(plain)]
splat = secret([{ a = 1 }])[*].a
overOutput = [for x in secret(["a"]) : x]
conditional = secret(true) ? 1 : 2
called = join(",", secret(["a"]))
lengthOfOutput = length(hidden)
lookupOfOutput = lookup(secret({ a = "b" }), "a")
json = toJSON(inList)
tried = try(hidden, "fallback")
canOutput = can(hidden)
fromConfig = "${password}!"
