# An attribute-only splat inside a full splat applies to each element (hclsyntax accepts it).
a = x[*].*
b = x[*].y.*.z
c = x.*[0].*
