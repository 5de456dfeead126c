block "invalid" 1.2 {}
block "valid" {}
