# Components may use each other's outputs (the reference allows it): each is typed from its
# program's outputs, so both blocks are checked in full.
component "first" "./first" {
  firstInpt = second.data
}

component "second" "./second" {
  secondInput = [first.data]
}

output fromFirst {
  value = first.data
}

output missing {
  value = first.nosuch
}
