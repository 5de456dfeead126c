# Tuples, objects, indexes, attributes and splats.
tuple = [1, "two", true]
emptyTuple = []
object = { a = 1, "b" = "two", 3 = false }
key = "dyn"
computed = { (key) = 1, other = 2 }
nonStringKey = { [1] = 2 }
nullKey = { null = 1 }
first = tuple[0]
outOfRange = tuple[3]
byKey = object["a"]
byAttr = object.b
unknownAttr = object.c
typo = object.aa
list = [for x in tuple : x]
elementOfList = list[0]
dynamicIndex = list[count]
count = 1
badIndex = list["x"]
people = [{ name = "a", age = 1 }, { name = "b", age = 2 }]
names = people[*].name
legacySplat = people.*.name
splatIndex = people[*].name[0]
attrSplatIndex = people.*.name[0]
legacyIndex = tuple.0
notTraversable = count.foo
nullTraversal = null.foo
caseMismatch = object.A
hugeExponent = 1e99999999999999999999

# After `[*]`, the rest of the traversal, splats included, applies to each element (hclsyntax
# parses it anew against the element): each element's `a.*.b`, and each element's `a[*]`.
nestedRows = [{ a = [{ b = 1 }, { b = 2 }] }]
splatInSplat = nestedRows[*].a.*.b
fullInFull = nestedRows[*].a[*].b
