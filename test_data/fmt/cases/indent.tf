resource "a" "b" {
name="x"
      nested {
	value = 1
            deeper {
 x = 2
                  }
   }
}

  top = 1
