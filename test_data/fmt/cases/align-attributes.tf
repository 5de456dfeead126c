a = 1
longer_name = 2
x = "three"

after_blank = 1
b = 2
# a comment line
ccc = 3
d = 4
block {
  inner = 1
  much_longer = 2
}
e = 5
multi = [
  1,
]
ff = 6
doc = <<EOT
hello
EOT
gggggg = 7
