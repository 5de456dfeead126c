resource a "random:index/randomPet:RandomPet" {
length = 2

resource b "random:index/randomPet:RandomPet" {
length = 3
}

output o {
value = a.id
}

config c string {
default = "x"
inner {
y = 1
}
pulumi {
z = 1
}
