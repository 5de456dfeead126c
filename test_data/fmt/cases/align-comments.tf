a = 1 # one
longer = 2 // two
x = [1, 2] /* three */ # four

b = 1   # alone

block { # opens
  c = 1 # inside
} # closes
# own line
d = 1 # last, no newline