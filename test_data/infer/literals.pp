# Literals: ints within int32 are int, other numbers number; big integers stay exact.
small = 42
negative = -2147483648
large = 2147483648
huge = 123456789012345678901234567890
fraction = 1.5
exponent = 1e3
yes = true
nothing = null
text = "plain"
escaped = "tab\there \u00e9 $${not} %%{not}"
heredoc = <<EOT
line one
  line two
EOT
flush = <<-EOT
    indented
      more
    EOT
