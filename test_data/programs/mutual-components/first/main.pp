config firstInput string {
}

output data {
  value = "first ${firstInput}"
}
