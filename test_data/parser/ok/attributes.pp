a = 1
b_c = "str"
dash-name = true
true = false
null = null
x = x-1
y = 1-1
