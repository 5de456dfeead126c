x   =   1
b = <<EOT
no end marker   
  y   =   2
