config "azs" "list(string)" {
  default     = [
  description = "availability zones"
}
lenPets = invoke("std:index:max", {
  input = [1, 2, 3]
}.result

resource pets "random:index/randomPet:RandomPet" {
  options {
    range = lenPets
  }
  length = (2
}
