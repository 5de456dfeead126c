# Operators: int stays int where both sides are int; `/` is always number; comparisons and
# logic give bool; operands must convert.
i = 7
n = 2.5
sum = i + i
literalSum = 1 + 2
mixed = i + n
quotient = i / i
remainder = i % 2
negated = -i
negatedNumber = -n
less = i < n
equal = i == "7"
both = true && false
either = !true || i > 3
stringPlus = "a" + 1
notANumber = !i
badLogic = 1 && true
