# Templates: interpolations and directives give string (lifted by their parts); a template
# that is a single interpolation is that expression; strip markers remove whitespace.
name = "world"
count = 3
greeting = "hello ${name}!"
wrapped = "${count}"
stripped = "a   ${~ name ~}   b"
conditional = "%{ if count > 1 }many%{ else }one%{ endif }"
loop = "%{ for i, n in ["a", "b"] }${i}=${n};%{ endfor }"
heredoc = <<-EOT
    Hello, ${name}
      count: ${count}
    EOT
secretGreeting = "hi ${secret(name)}"
badInterpolation = "items: ${[1, 2]}"
badCondition = "%{ if "maybe" }x%{ endif }"
badLoop = "%{ for c in "abc" }${c}%{ endfor }"
