a   =   1
b = "unterminated   
c   =   3
