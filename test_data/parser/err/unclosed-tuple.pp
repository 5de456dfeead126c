foo = [ a
