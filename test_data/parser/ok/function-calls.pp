a = f()
b = f(1, 2)
c = f(
  1,
  2,
)
d = upper(["foo"]...)
e = join(",", xs...)
f = provider::aws::arn_parse(x)
g = foo :: upper("x")
h = f (1)
