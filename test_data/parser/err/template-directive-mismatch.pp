a = "%{ for x in xs }${x}%{ else }y%{ endfor }"
b = "%{ if x }y"
