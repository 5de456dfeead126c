# Conditionals unify their branches; the condition must be a bool.
flag = true
numbers = flag ? 1 : 2.5
mixed = flag ? 1 : "one"
optional = flag ? "x" : null
lists = flag ? ["a"] : []
badCondition = "yes" ? 1 : 2
secretCondition = secret(flag) ? 1 : 2
