x = << EOT
hello
EOT
y = <<- EOT
  indented
  EOT
z = 1
v = << NONE
w = 2
