foo = "${a
