config secondInput string {
}

output data {
  value = "second ${secondInput}"
}
