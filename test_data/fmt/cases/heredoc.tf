a = <<EOT
  keep   this   ${ x }
	and this
EOT
b = <<-EOT
    indented
    EOT
c = [<<EOT
in a list
EOT
, 1]
d = upper(<<EOT
  ${ join(",", [ 1,2 ]) }
EOT
)
