a = "café"
été = 1
unicode_日本 = 2
