# For expressions: tuple and object forms, grouping, conditions, key and value variables.
xs = ["a", "b", "c"]
m = { a = 1, b = 2 }
upper = [for x in xs : "${x}!"]
indexed = [for i, x in xs : i]
inverted = { for k, v in m : v => k }
grouped = { for x in xs : x => x... }
filtered = [for k, v in m : k if v > 1]
overObject = [for k, v in { a = 1, b = "2" } : v]
overString = [for c in "abc" : c]
badKey = { for x in xs : [x] => x }
badCondition = [for x in xs : x if x]
sameNames = [for x, x in xs : x]
nested = [for x in xs : [for y in xs : "${x}${y}"]]
