//! Literal values carried by const and enum types, kept exactly.

use std::fmt;

use num_bigint::BigInt;
use num_traits::{Signed, ToPrimitive, Zero};

use crate::kinds::Type;

/// An exact decimal number: `mantissa × 10^exponent`, normalized so that equal values
/// have equal representations (no trailing zeros in the mantissa; zero has exponent 0).
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub struct Decimal {
    mantissa: BigInt,
    exponent: i64,
}

impl Decimal {
    pub fn new(mantissa: BigInt, exponent: i64) -> Decimal {
        let mut mantissa = mantissa;
        let mut exponent = exponent;
        if mantissa.is_zero() {
            return Decimal {
                mantissa,
                exponent: 0,
            };
        }
        let ten = BigInt::from(10);
        loop {
            let (quotient, remainder) = (&mantissa / &ten, &mantissa % &ten);
            if !remainder.is_zero() {
                break;
            }
            mantissa = quotient;
            exponent += 1;
        }
        Decimal { mantissa, exponent }
    }

    pub fn mantissa(&self) -> &BigInt {
        &self.mantissa
    }
    pub fn exponent(&self) -> i64 {
        self.exponent
    }

    /// The value as an integer, if it is integral and its exponent is of a sane size.
    pub fn to_integer(&self) -> Option<BigInt> {
        if self.exponent < 0 {
            return None;
        }
        let exponent = u32::try_from(self.exponent)
            .ok()
            .filter(|e| *e <= 100_000)?;
        Some(&self.mantissa * num_traits::pow(BigInt::from(10), exponent as usize))
    }

    pub fn negate(&self) -> Decimal {
        Decimal {
            mantissa: -&self.mantissa,
            exponent: self.exponent,
        }
    }
}

impl fmt::Display for Decimal {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let negative = self.mantissa.is_negative();
        let digits = self.mantissa.abs().to_string();
        let sign = if negative { "-" } else { "" };
        // Plain notation for reasonable magnitudes, scientific beyond.
        if self.exponent >= 0 && self.exponent <= 21 {
            let zeros = "0".repeat(self.exponent as usize);
            return write!(f, "{sign}{digits}{zeros}");
        }
        if self.exponent < 0 && -self.exponent <= 21 {
            let shift = (-self.exponent) as usize;
            return if digits.len() > shift {
                let (int, frac) = digits.split_at(digits.len() - shift);
                write!(f, "{sign}{int}.{frac}")
            } else {
                let zeros = "0".repeat(shift - digits.len());
                write!(f, "{sign}0.{zeros}{digits}")
            };
        }
        let (first, rest) = digits.split_at(1);
        let exponent = self.exponent + rest.len() as i64;
        if rest.is_empty() {
            write!(f, "{sign}{first}e{exponent}")
        } else {
            write!(f, "{sign}{first}.{rest}e{exponent}")
        }
    }
}

/// The value of a literal.
#[derive(Debug, Clone, PartialEq, Eq, Hash)]
pub enum ConstValue {
    Null,
    Bool(bool),
    /// Boxed, as is `Number`: a value is 24 bytes, not 40, in every literal expression.
    Int(Box<BigInt>),
    Number(Box<Decimal>),
    String(Box<str>),
}

/// A numeric literal that could not be read exactly.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum LiteralError {
    /// The text is not a number.
    Malformed(String),
    /// The exponent is too large to represent.
    ExponentOutOfRange(String),
}

impl fmt::Display for LiteralError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            LiteralError::Malformed(text) => write!(f, "malformed number literal `{text}`"),
            LiteralError::ExponentOutOfRange(text) => {
                write!(
                    f,
                    "the exponent of the number literal `{text}` is out of range"
                )
            }
        }
    }
}

impl std::error::Error for LiteralError {}

impl ConstValue {
    /// Reads a number as HCL writes it: `-`? digits (`.` digits)? ([eE] [+-]? digits)?.
    /// Integral values become `Int`, others `Number`; nothing is rounded.
    pub fn parse_number(text: &str) -> Result<ConstValue, LiteralError> {
        // Most literals are small integers: the same value, without the decimal's way there.
        let unsigned = text.strip_prefix('-').unwrap_or(text);
        if !unsigned.is_empty()
            && unsigned.len() <= 18
            && unsigned.bytes().all(|b| b.is_ascii_digit())
        {
            if let Ok(value) = text.parse::<i64>() {
                return Ok(ConstValue::Int(Box::new(BigInt::from(value))));
            }
        }
        ConstValue::parse_number_by_rules(text)
    }

    fn parse_number_by_rules(text: &str) -> Result<ConstValue, LiteralError> {
        let malformed = || LiteralError::Malformed(text.to_string());
        let (negative, rest) = match text.strip_prefix('-') {
            Some(rest) => (true, rest),
            None => (false, text),
        };
        let (significand, exponent_text) = match rest.find(['e', 'E']) {
            Some(index) => (&rest[..index], Some(&rest[index + 1..])),
            None => (rest, None),
        };
        let (int_part, frac_part) = match significand.split_once('.') {
            Some((int, frac)) => (int, frac),
            None => (significand, ""),
        };
        let all_digits = |s: &str| s.bytes().all(|b| b.is_ascii_digit());
        if int_part.is_empty() || !all_digits(int_part) || !all_digits(frac_part) {
            return Err(malformed());
        }
        if significand.ends_with('.') {
            return Err(malformed());
        }
        let mut exponent: i64 = match exponent_text {
            None => 0,
            Some(e) => {
                let digits = e.strip_prefix(['+', '-']).unwrap_or(e);
                if digits.is_empty() || !all_digits(digits) {
                    return Err(malformed());
                }
                e.parse::<i64>()
                    .map_err(|_| LiteralError::ExponentOutOfRange(text.to_string()))?
            }
        };
        let frac_len = i64::try_from(frac_part.len())
            .map_err(|_| LiteralError::ExponentOutOfRange(text.to_string()))?;
        exponent = exponent
            .checked_sub(frac_len)
            .ok_or_else(|| LiteralError::ExponentOutOfRange(text.to_string()))?;
        let digits = format!("{int_part}{frac_part}");
        let mut mantissa: BigInt = digits.parse().map_err(|_| malformed())?;
        if negative {
            mantissa = -mantissa;
        }
        let decimal = Decimal::new(mantissa, exponent);
        // Integral values are kept as integers unless written with a huge exponent
        // (`1e400`), which stays a compact decimal; both are exact.
        if decimal.exponent() >= 0 && decimal.exponent() <= 30 {
            if let Some(int) = decimal.to_integer() {
                return Ok(ConstValue::Int(Box::new(int)));
            }
        }
        Ok(ConstValue::Number(Box::new(decimal)))
    }

    /// The literal type of this value, following the reference: `null` → `none`, integers
    /// within int32 → `int`, other numbers → `number`.
    pub fn literal_type(self) -> Type {
        Type::constant(self.underlying_type(), self)
    }

    /// The type of which this literal's type is a constant: `none`, `bool`, `string`, `int`
    /// (a whole number within the range of an `i32`) or `number`.
    pub fn underlying_type(&self) -> Type {
        match self {
            ConstValue::Null => Type::none(),
            ConstValue::Bool(_) => Type::bool(),
            ConstValue::String(_) => Type::string(),
            ConstValue::Int(i) if i.to_i32().is_some() => Type::int(),
            ConstValue::Int(_) | ConstValue::Number(_) => Type::number(),
        }
    }

    /// The numeric value as a decimal, for comparing `Int` with `Number`.
    pub fn as_decimal(&self) -> Option<Decimal> {
        match self {
            ConstValue::Int(i) => Some(Decimal::new((**i).clone(), 0)),
            ConstValue::Number(d) => Some((**d).clone()),
            _ => None,
        }
    }

    /// Value equality, where `Int(1)` equals `Number(1)`.
    pub fn same_value(&self, other: &ConstValue) -> bool {
        match (self.as_decimal(), other.as_decimal()) {
            (Some(a), Some(b)) => a == b,
            _ => self == other,
        }
    }
}

impl fmt::Display for ConstValue {
    /// The readable form: `"a"`, `true`, `42`, `null`.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConstValue::Null => f.write_str("null"),
            ConstValue::Bool(b) => write!(f, "{b}"),
            ConstValue::Int(i) => write!(f, "{i}"),
            ConstValue::Number(d) => write!(f, "{d}"),
            ConstValue::String(s) => write!(f, "{s:?}"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn small_integers_read_as_the_rules_read_them() {
        let texts = [
            "0",
            "-0",
            "7",
            "007",
            "-42",
            "2147483647",
            "2147483648",
            "-2147483649",
            "999999999999999999",
            "-999999999999999999",
            "9223372036854775807",
            "1000000000000000000",
            "1.0",
            "1e3",
            "-",
            "",
            "1-",
            "12a",
        ];
        for text in texts {
            assert_eq!(
                ConstValue::parse_number(text),
                ConstValue::parse_number_by_rules(text),
                "{text}"
            );
        }
    }
}
