a = "%{ endif }"
b = "%{ of x }"
