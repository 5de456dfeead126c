x = <<EOT
EOF
EOT
y = <<EOT
${a}-${b} EOT
eot
EOT
