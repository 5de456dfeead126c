block "f\o" {}
