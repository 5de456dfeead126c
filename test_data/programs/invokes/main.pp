# invoke and call, typed from the schema.

config zoneName string {
  default = "example.com"
}

resource site "demo:storage/bucket:Bucket" {
  name = "site"
}

# The promise form: plain arguments.
zone = invoke("demo:network/getZone:getZone", { name = zoneName })
zoneId = zone.id
servers = zone.nameServers[0]

# The output form: an argument is an output.
siteZone = invoke("demo:network/getZone:getZone", { name = site.name, private = true })

# With invoke options.
withOptions = invoke("demo:network/getZone:getZone", { name = "a" }, { provider = site, version = "1.0.0" })

# Multi-argument functions take positional arguments.
larger = invoke("demo:index/max:max", 1, 2.5)
objectForm = invoke("demo:index/max:max", { a = 1, b = 2 })
tooFew = invoke("demo:index/max:max", 1)

missingArgs = invoke("demo:network/getZone:getZone", {})
wrongArg = invoke("demo:network/getZone:getZone", { name = 42, privat = true })
unknownFunction = invoke("demo:network/getZones:getZonez", {})
badOptions = invoke("demo:network/getZone:getZone", { name = "a" }, { pluginDownloadURL = "x" })
notLiteral = invoke(zoneName, {})

# Methods of resources and providers.
link = call(site, "presign", { key = "index.html", ttlSeconds = 60 })
linkUrl = link.url
noMethod = call(site, "sign", {})
badArgs = call(site, "presign", { ttlSeconds = "soon" })
notAResource = call(zone, "presign", {})

resource provider "pulumi:providers:demo" {
  region = "eu-west-1"
}

described = call(provider, "describe", {})

# The invoke options after positional arguments; too many arguments for either form.
largerWithOptions = invoke("demo:index/max:max", 1, 2.5, { version = "1.0.0" })
tooManyPositional = invoke("demo:index/max:max", 1, 2, {}, 4)
tooMany = invoke("demo:network/getZone:getZone", { name = "a" }, {}, 4)
tooManyUnknown = invoke("demo:index/nope:nope", {}, {}, 4)

# Every function takes its arguments, `{}` when none is required.
noArguments = invoke("demo:network/getZone:getZone")
noPositional = invoke("demo:index/max:max")
noneRequired = invoke("demo:index/listZones:listZones")
allOptional = invoke("demo:index/listZones:listZones", {})
