a { b = "foo" }
options { range = 10 }
c {}
