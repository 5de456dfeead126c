x = <<EOT
hello
EOF
y = 2
z = <<-POLICY
  allow
  POLCY
w = "after"
