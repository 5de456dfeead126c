# Config and output nodes: type labels in the type scope, defaults, null defaults, secrets,
# optional object properties; outputs checked against their declared type.
config region string {
  default = "us-west-2"
}
config port int {
  default = "8080"
}
config badPort int {
  default = "eighty"
}
config replicas "int" {
  default = 1.5
}
config tags "map(string)" {}
config subnets "list(object({ cidr = string, public = bool }))" {}
config settings "object({ name: string, size: optional(int) })" {}
config pair "tuple([string, int])" {}
config anything "any" {}
config untyped {}
config maybe string {
  default = null
}
config password string {
  secret = true
}
config badType "lst(string)" {}
config badObject "object(string)" {}
config tooMany "list(string, int)" {}
config unknownName "strin" {}
config notAType "1 + 2" {}
config unparsable "list(" {}
output url string {
  value = "https://${region}"
}
output wrong int {
  value = "not a number"
}
output untypedOutput {
  value = { region = region, port = port }
}
output secretOutput {
  value = password
}
# The strings go-cty converts: "1" and "0" to bool, a leading `+` to a number.
config flagOn bool {
  default = "1"
}
config flagOff bool {
  default = "0"
}
config plusPort int {
  default = "+8080"
}
config flagYes bool {
  default = "yes"
}
