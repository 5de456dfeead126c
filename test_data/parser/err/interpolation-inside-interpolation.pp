name = "${upper(${prefix})}"
sum = "${a + ${b}}"
dashed = "${a-${b}}"
tight = "${${x}}"
listed = "${join("-", [${a}, "b"])}"
heredoc = <<EOT
  ${lower(${prefix})} and ${x}
EOT
