empty_tuple = []
empty_object = {}
tuple = [1, "two", three]
trailing = [1, 2,]
multiline_tuple = [
  1
  , 2
  ,
]
object = { a = 1, b: 2, "c" = 3, (d) = 4 }
multiline_object = {
  a = 1

  b = 2,
  c = {
    d = [1, 2]
  }
}
traversal_key = { foo.bar = 1 }
keyword_keys = { "for" = 1, (for) = 2 }
paren_value = {
  b = (1 +
  2)
}
