a = 
b = 2
