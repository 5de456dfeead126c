a = x ? 1 : 2
b = x ? 1 : y ? 2 : 3
c = (x
  ? "multi"
  : "line")
