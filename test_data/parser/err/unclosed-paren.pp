foo = (1
