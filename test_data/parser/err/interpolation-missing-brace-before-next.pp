name = "${a-${b}"
other = "${var.x-${y}-z"
path = "${dir/${file}"
spaced = "${a ${b}"
doc = <<EOT
${prefix-${suffix}
EOT
after = "${a}-${b}"
