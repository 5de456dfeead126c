foo = "${a}
bar = 1
