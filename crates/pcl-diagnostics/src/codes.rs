//! The registry of diagnostic codes.
//!
//! Codes are stable: a code is never reused for another kind of problem. The letter is the
//! default severity (`E` error, `W` warning; lenient modes may lower an error to a warning),
//! the first two digits the layer:
//!
//! * `00`: syntax (lexer, parser, tree validation)
//! * `01`: package schemas
//! * `02`: declarations (blocks, labels, names)
//! * `03`: expressions and types (inference)
//! * `04`: program structure (dependencies, cycles)

use crate::Severity;

macro_rules! codes {
    ($( $(#[$doc:meta])* $variant:ident = $code:literal, $summary:literal; )*) => {
        /// A kind of problem, with its stable code. See `docs/diagnostics.md`.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash)]
        pub enum Code {
            $( $(#[$doc])* $variant, )*
        }

        impl Code {
            /// Every code, in registry order.
            pub const ALL: &'static [Code] = &[$(Code::$variant,)*];

            /// The stable code, e.g. `E0203`.
            pub fn as_str(self) -> &'static str {
                match self {
                    $( Code::$variant => $code, )*
                }
            }

            /// A one-line description of the kind of problem.
            pub fn summary(self) -> &'static str {
                match self {
                    $( Code::$variant => $summary, )*
                }
            }
        }
    };
}

codes! {
    // ---- 00: syntax ----------------------------------------------------------------------
    /// A file that is not valid UTF-8 (the bad bytes are read as U+FFFD).
    InvalidEncoding = "E0001", "the file is not valid UTF-8";
    /// A character that starts no token: a stray control character, `;`, a misplaced byte order
    /// mark, a carriage return without a line feed.
    InvalidCharacter = "E0002", "a character that is not valid here";
    /// A string written in single quotes, backticks or curly quotes.
    InvalidQuote = "E0003", "a string in quotes that HCL does not use";
    /// `&`, `|`, `^`, `~` or `**`: operators HCL does not have.
    UnsupportedOperator = "E0004", "an operator that HCL does not have";
    /// A quoted string without its closing `"` on the same line.
    UnterminatedString = "E0005", "a quoted string is not closed on its line";
    /// A backslash escape that is not one of HCL's.
    InvalidEscape = "E0006", "an invalid escape sequence in a string";
    /// A number literal in a form HCL does not accept (`1.2.3`, `.5`).
    InvalidNumber = "E0007", "an invalid number literal";
    /// A heredoc introducer with text after its marker.
    InvalidHeredoc = "E0008", "a heredoc marker that does not end its line";
    /// A heredoc that no line holding only its marker closes.
    UnterminatedHeredoc = "E0009", "a heredoc is not closed by its marker";
    /// A token where the grammar expects something else; the message says what.
    UnexpectedToken = "E0010", "a token that does not fit here";
    /// An expression is missing, or what follows cannot start one.
    ExpectedExpression = "E0011", "an expression is expected";
    /// Two elements, arguments, items, or a key and its value, without their separator.
    MissingSeparator = "E0012", "a separator (`,`, `=`, `:` or a newline) is missing";
    /// An argument or block that does not end its line.
    MissingNewline = "E0013", "an argument or block does not end its line";
    /// An opening `(`, `[`, `{`, `${` or `%{` that nothing closes.
    UnclosedBracket = "E0014", "an opening bracket that nothing closes";
    /// A block whose `{` no `}` closes.
    UnclosedBlock = "E0015", "a block that no `}` closes";
    /// A block header or one-line block body that is not well formed.
    InvalidBlock = "E0016", "a malformed block definition";
    /// A block label that is a number, or a string with template sequences.
    MalformedLabel = "E0017", "a block label that is not an identifier or a literal string";
    /// An argument name written as a string.
    QuotedArgumentName = "E0018", "an argument name in quotes";
    /// A malformed `.name`, `.0`, `[*]` or splat step.
    MalformedTraversal = "E0019", "a malformed attribute access, index or splat";
    /// A `[for ...]` or `{for ...}` expression that is not well formed.
    InvalidForExpression = "E0020", "a malformed for expression";
    /// A template directive (`%{ ... }`) that is not well formed.
    InvalidDirective = "E0021", "a malformed template directive";
    /// `%{ else }`, `%{ endif }` or `%{ endfor }` without its opening directive.
    UnexpectedDirective = "E0022", "a template directive without its opening directive";
    /// `%{ if }` or `%{ for }` without its `%{ endif }` or `%{ endfor }`.
    UnclosedDirective = "E0023", "a template directive without its closing directive";
    /// Expressions, templates or blocks nested more than 256 levels deep.
    NestingTooDeep = "E0024", "nesting too deep";
    /// An argument set twice in one body.
    DuplicateAttribute = "E0025", "an argument is set twice in one body";

    // ---- 02: declarations ----------------------------------------------------------------
    /// A block with the wrong number of labels for its type.
    WrongLabelCount = "E0201", "a block has the wrong number of labels";
    /// A top-level block whose type PCL does not know.
    UnknownBlockType = "W0202", "unknown block type (the block is ignored)";
    /// Two top-level nodes with the same name.
    DuplicateName = "E0203", "a name is declared twice";
    /// A label that is not valid for its block: a config type that does not parse, a hook kind.
    InvalidLabel = "E0204", "a block label is not valid";
    /// An attribute that the block does not support.
    UnsupportedAttribute = "E0205", "an attribute the block does not support";
    /// A nested block that the block does not support, or a second one where one is allowed.
    UnsupportedBlock = "E0206", "a nested block the block does not support";
    /// An attribute whose value must be a literal (`__logicalName`, `nullable`, ...).
    NotALiteral = "E0207", "an attribute must be a literal";
    /// A required attribute is missing.
    MissingAttribute = "E0208", "a required attribute is missing";
    /// An attribute that config, output and pulumi blocks ignore.
    IgnoredAttribute = "W0209", "an attribute the block ignores";

    // ---- 03: expressions and types -------------------------------------------------------
    /// A name that is not defined in scope.
    UndefinedVariable = "E0301", "undefined variable";
    /// A call to a function that does not exist.
    UnknownFunction = "E0302", "unknown function";
    /// A call with too few or too many arguments.
    ArgumentCount = "E0303", "wrong number of arguments";
    /// A value whose type does not convert to the type expected.
    TypeMismatch = "E0304", "a value does not convert to the type expected";
    /// An attribute or key that the object does not have.
    UnknownProperty = "E0305", "unknown property";
    /// An object constructor key that is not a string.
    NonStringKey = "E0306", "an object key is not a string";
    /// `for`, `range` or a builtin iterating over something that is not a collection.
    NotIterable = "E0307", "iteration over a value that is not a collection";
    /// An index or attribute access the value does not support.
    InvalidTraversal = "E0308", "a value cannot be traversed this way";
    /// A builtin function argument of the wrong shape (`element` of a non-list, ...).
    InvalidArgument = "E0309", "a function argument has the wrong shape";
    /// A property matched only when ignoring case.
    CaseInsensitiveProperty = "W0310", "a property matched only when ignoring case";
    /// A function removed from PCL.
    RemovedFunction = "E0311", "a function that PCL no longer has";
    /// A `for` expression whose two variables have the same name.
    DuplicateVariable = "E0312", "a variable is defined twice in one scope";
    /// A type expression in a config or output label that is not a type.
    InvalidTypeExpression = "E0313", "an invalid type expression";
    /// A traversal of a value that is always null.
    TraversalOfNone = "W0314", "a traversal of a value that is always null";
    /// A numeric literal that cannot be represented.
    InvalidLiteral = "E0315", "an invalid literal";
    /// A literal that Pulumi's binder accepts where it cannot convert when the program runs
    /// (`true` for a number, a list indexed by `"name"`): programs converted from other
    /// languages carry them, so a warning.
    FailsAtRunTime = "W0316", "a literal accepted here that cannot convert at run time";
    /// A key given twice in one object literal: the later value is used (as Pulumi's binder
    /// and hclsyntax take it), and some languages' code generators refuse the program.
    DuplicateObjectKey = "W0317", "a key given twice in one object literal";

    // ---- 04: program structure -----------------------------------------------------------
    /// Nodes whose values depend on each other.
    CircularReference = "E0401", "circular reference between nodes";

    // ---- 05: binding against package schemas ---------------------------------------------
    /// A resource or function token that is not `pkg:module:member` or `pkg:member`.
    MalformedToken = "E0501", "a malformed resource or function token";
    /// A package whose schema is not available (or not valid).
    UnknownPackage = "E0502", "a package whose schema is not available";
    /// A resource type its package does not define.
    UnknownResourceType = "E0503", "a resource type the package does not define";
    /// An `invoke` of a function its package does not define.
    UnknownInvokeFunction = "E0504", "a function the package does not define";
    /// A key of an object literal that the schema type does not have (it would be ignored).
    UnknownObjectKey = "W0505", "a key the schema type does not have";
    /// A `read` of a provider or component resource.
    CannotRead = "E0506", "a resource that cannot be read";
    /// A property path (`ignoreChanges` and friends) that names no property of the resource.
    InvalidPropertyPath = "E0507", "a property path that names no property";
    /// A `hooks` option that is not an object of hook lists, or a hook of the wrong kind.
    InvalidHooks = "E0508", "an invalid hooks option";
    /// An `invoke` or `call` whose arguments do not fit its form.
    InvalidInvoke = "E0509", "an invoke or call that does not fit its form";
    /// A component whose program cannot be found or used.
    InvalidComponent = "E0510", "a component whose program cannot be used";
    /// A `package` block that does not describe a package.
    InvalidPackage = "E0511", "an invalid package block";
}

impl Code {
    /// The severity a diagnostic of this code has unless a mode changes it.
    pub fn default_severity(self) -> Severity {
        if self.as_str().starts_with('W') {
            Severity::Warning
        } else {
            Severity::Error
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn codes_are_unique_and_well_formed() {
        let mut seen = std::collections::HashSet::new();
        for code in Code::ALL {
            let text = code.as_str();
            assert!(seen.insert(&text[1..]), "number of {text} used twice");
            assert_eq!(text.len(), 5, "{text}");
            assert!(text.starts_with('E') || text.starts_with('W'), "{text}");
            assert!(text[1..].bytes().all(|b| b.is_ascii_digit()), "{text}");
        }
    }
}
