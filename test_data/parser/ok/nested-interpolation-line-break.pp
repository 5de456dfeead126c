# A line break inside an interpolation of a string inside an interpolation (hclsyntax accepts it).
a = "${"${
1}"}"
foo = "${file("${path.module
}/x")}"
