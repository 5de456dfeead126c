foo = boop("a"
