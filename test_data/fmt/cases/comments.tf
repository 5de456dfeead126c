/* block
   comment */
  # hash
    // slashes
block {
# not indented
  /* inline */ a = 1
}
# last line without newline