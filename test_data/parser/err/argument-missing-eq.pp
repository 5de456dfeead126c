prefix "pet-${suffix}"
count 3
config "azs"
resource pet "random:index/randomPet:RandomPet" {
  prefix = prefix
}
