# Each place where pcl deliberately differs from Pulumi's reference binder (docs/inference.md).
# 1. Division is never integral.
half = 7 / 2
# 2. Literal ints are ints: `1 + 2` is int (the reference: number).
three = 1 + 2
# 3. Node types widen literals; unions of widened members unify (number, not 1 | 2.5).
flag = true
widened = flag ? 1 : 2.5
# 4. An untyped output has its value's type (the reference: dynamic).
output untyped {
  value = [1, 2]
}
# 5. for variables are not references: no false cycle through `x`.
x = [for x in [1, 2] : x]
# 6. Literals are converted by value: "abc" never becomes a number.
notANumber = range("abc")
# 7. Interpolating a value that has no string form is an error.
interpolatedList = "items: ${[1]}"
# 8. max and min of a number literal are numbers.
biggest = max(1, 2.5)
# 9. A union with a dynamic member iterates as dynamic.
maybe = flag ? invoke("test:index:get", {}).items : []
each = [for v in maybe : v]
# 10. Where the reference panics: entries() without an argument, a tuple index equal to the
#     length, lookup on an empty object.
noEntries = entries()
pastTheEnd = [1, 2][2]
emptyLookup = lookup({}, "a")
# 11. Removed functions get their own message.
mime = mimeType("a.txt")
