# All files of a program share one root scope.
#- main.pp
greeting = "hello ${name}"
config count int {
  default = 2
}
#- vars.pp
name = "world"
names = [for i in range(count) : "${name}-${i}"]
#- outputs.pp
output all {
  value = names
}
