a = <<EOT
hello
EOT
b = <<-EOT
    indented ${name}
      more
    EOT
c = <<EOT
  x
  EOT
d = <<EOT
${b}EOT
EOT
e = <<EOF
${<<-EOF
hello
EOF
}
EOF
f = <<END
    END (ineligible) END
END
g = <<EOT
%{ for a in b ~}
  prefix-${a}
%{~ endfor }
EOT
h = <<EOT
EOT
i = <<-EOT
	Tab indented
	  and more
	EOT
