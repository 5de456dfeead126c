a = "multi
line"
b = 2
