resource pet "random:index/randomPet:RandomPet {
  length = 2
}
biggest = invoke("std:index:max, {
  input = [1, 2, 3]
}).result
text = "not { a block"
