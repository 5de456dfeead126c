a = partial::
b = ::upper("foo")
c = double::::upper()
d = a::b
