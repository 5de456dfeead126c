foo = "${a"
