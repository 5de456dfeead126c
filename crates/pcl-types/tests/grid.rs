//! Every relation over a grid of types of every kind (tests/common/mod.rs).

mod common;

use expect_test::expect;
use pcl_types::{ConversionKind, Traverser, Type};

fn kind_letter(kind: ConversionKind) -> &'static str {
    match kind {
        ConversionKind::Safe => "S",
        ConversionKind::Unsafe => "U",
        ConversionKind::None => ".",
    }
}

#[test]
fn assignable_grid() {
    let table = common::matrix(|d, s| {
        if d.assignable_from(s) {
            "T".into()
        } else {
            ".".into()
        }
    });
    expect![[r#"
        dest \ src      |  0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21
         0 dynamic      |  T  T  T  T  T  T  T  T  T  T  T  T  T  T  T  T  T  T  T  T  T  T
         1 none         |  .  T  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  T  .
         2 bool         |  .  .  T  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
         3 int          |  .  .  .  T  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  T  .  .
         4 number       |  .  .  .  .  T  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
         5 string       |  .  .  .  .  .  T  .  .  .  .  .  .  .  .  .  .  .  .  T  .  .  .
         6 Asset        |  .  .  .  .  .  .  T  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
         7 list(str)    |  .  .  .  .  .  .  .  T  .  .  .  .  .  .  .  .  .  .  .  .  .  .
         8 list(int)    |  .  .  .  .  .  .  .  .  T  .  .  .  .  .  .  .  .  .  .  .  .  .
         9 set(str)     |  .  .  .  .  .  .  .  .  .  T  .  .  .  .  .  .  .  .  .  .  .  .
        10 map(int)     |  .  .  .  .  .  .  .  .  .  .  T  .  T  .  .  .  .  .  .  .  .  .
        11 tuple(i,s)   |  .  .  .  .  .  .  .  .  .  .  .  T  .  .  .  .  .  .  .  .  .  .
        12 {a:int}      |  .  .  .  .  .  .  .  .  .  .  .  .  T  T  .  .  .  .  .  .  .  .
        13 {a:int,b:s?} |  .  .  .  .  .  .  .  .  .  .  .  .  T  T  .  .  .  .  .  .  .  .
        14 int|string   |  .  .  .  T  .  T  .  .  .  .  .  .  .  .  T  .  .  .  T  T  .  .
        15 string?      |  .  T  .  .  .  T  .  .  .  .  .  .  .  .  .  T  .  .  T  .  T  .
        16 output(str)  |  .  .  .  .  .  T  .  .  .  .  .  .  .  .  .  .  T  .  T  .  .  .
        17 promise(int) |  .  .  .  T  .  .  .  .  .  .  .  .  .  .  .  .  .  T  .  T  .  .
        18 "a"          |  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  T  .  .  .
        19 1            |  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  T  .  .
        20 null         |  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  T  .
        21 enum(A|B)    |  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .  T
    "#]]
    .assert_eq(&table);
}

#[test]
fn conversion_grid() {
    let table = common::matrix(|d, s| kind_letter(d.conversion_from(s).kind).into());
    expect![[r#"
        dest \ src      |  0  1  2  3  4  5  6  7  8  9 10 11 12 13 14 15 16 17 18 19 20 21
         0 dynamic      |  S  S  S  S  S  S  S  S  S  S  S  S  S  S  S  S  S  S  S  S  S  S
         1 none         |  U  S  .  .  .  .  .  .  .  .  .  .  .  .  .  U  .  .  .  .  S  .
         2 bool         |  U  .  S  U  U  U  .  .  .  .  .  .  .  .  U  U  .  .  U  U  .  U
         3 int          |  U  .  U  S  U  U  .  .  .  .  .  .  .  .  U  U  .  .  U  S  .  U
         4 number       |  U  .  U  S  S  U  .  .  .  .  .  .  .  .  U  U  .  .  U  S  .  U
         5 string       |  U  .  S  S  S  S  .  .  .  .  .  .  .  .  S  U  .  .  S  S  .  S
         6 Asset        |  U  .  .  .  .  .  S  .  .  .  .  .  .  .  .  .  .  .  .  .  .  .
         7 list(str)    |  U  .  .  .  .  .  .  S  S  S  .  S  .  .  .  .  .  .  .  .  .  .
         8 list(int)    |  U  .  .  .  .  .  .  U  S  U  .  U  .  .  .  .  .  .  .  .  .  .
         9 set(str)     |  U  .  .  .  .  .  .  U  U  S  .  U  .  .  .  .  .  .  .  .  .  .
        10 map(int)     |  U  .  .  .  .  .  .  .  .  .  S  .  S  U  .  .  .  .  .  .  .  .
        11 tuple(i,s)   |  U  .  .  .  .  .  .  U  U  U  .  S  .  .  .  .  .  .  .  .  .  .
        12 {a:int}      |  U  .  .  .  .  .  .  .  .  .  U  .  S  S  .  .  .  .  .  .  .  .
        13 {a:int,b:s?} |  U  .  .  .  .  .  .  .  .  .  U  .  S  S  .  .  .  .  .  .  .  .
        14 int|string   |  U  .  S  S  S  S  .  .  .  .  .  .  .  .  S  U  .  .  S  S  .  S
        15 string?      |  U  S  S  S  S  S  .  .  .  .  .  .  .  .  S  S  .  .  S  S  S  S
        16 output(str)  |  U  .  S  S  S  S  .  .  .  .  .  .  .  .  S  U  S  S  S  S  .  S
        17 promise(int) |  U  .  U  S  U  U  .  .  .  .  .  .  .  .  U  U  .  S  U  S  .  U
        18 "a"          |  U  .  U  U  U  U  .  .  .  .  .  .  .  .  U  U  .  .  S  .  .  U
        19 1            |  U  .  U  U  U  U  .  .  .  .  .  .  .  .  U  U  .  .  .  S  .  U
        20 null         |  U  U  .  .  .  .  .  .  .  .  .  .  .  .  .  U  .  .  .  .  S  .
        21 enum(A|B)    |  U  .  U  U  U  U  .  .  .  .  .  .  .  .  U  U  .  .  .  .  .  S
    "#]]
    .assert_eq(&table);
}

#[test]
fn conversion_reasons_grid() {
    let mut out = String::new();
    for (dl, d) in common::grid() {
        for (sl, s) in common::grid() {
            let c = d.conversion_from(&s);
            if let Some(reason) = c.reason {
                out.push_str(&format!("{dl} <- {sl}: {} {reason}\n", kind_letter(c.kind)));
            }
        }
    }
    expect![[r#"
        none <- dynamic: U a value of type dynamic converts to type none only if it has the right form at run time
        none <- bool: . cannot assign a value of type bool to type none
        none <- int: . cannot assign a value of type int to type none
        none <- number: . cannot assign a value of type number to type none
        none <- string: . cannot assign a value of type string to type none
        none <- Asset: . cannot assign a value of type Asset to type none
        none <- list(str): . cannot assign a value of type list(string) to type none
        none <- list(int): . cannot assign a value of type list(int) to type none
        none <- set(str): . cannot assign a value of type set(string) to type none
        none <- map(int): . cannot assign a value of type map(int) to type none
        none <- tuple(i,s): . cannot assign a value of type (int, string) to type none
        none <- {a:int}: . cannot assign a value of type { a: int } to type none
        none <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type none
        none <- int|string: . cannot assign a value of type int | string to type none
        none <- string?: U a value of type string cannot be assigned to type none
        none <- output(str): . cannot assign a value of type output(string) to type none
        none <- promise(int): . cannot assign a value of type promise(int) to type none
        none <- "a": . cannot assign a value of type "a" to type none
        none <- 1: . cannot assign a value of type 1 to type none
        none <- enum(A|B): . cannot assign a value of type enum("A" | "B") to type none
        bool <- dynamic: U a value of type dynamic converts to type bool only if it has the right form at run time
        bool <- none: . cannot assign a value of type none to type bool
        bool <- int: U a value of type int converts to type bool only if it has the right form at run time
        bool <- number: U a value of type number converts to type bool only if it has the right form at run time
        bool <- string: U a value of type string converts to type bool only if it has the right form at run time
        bool <- Asset: . cannot assign a value of type Asset to type bool
        bool <- list(str): . cannot assign a value of type list(string) to type bool
        bool <- list(int): . cannot assign a value of type list(int) to type bool
        bool <- set(str): . cannot assign a value of type set(string) to type bool
        bool <- map(int): . cannot assign a value of type map(int) to type bool
        bool <- tuple(i,s): . cannot assign a value of type (int, string) to type bool
        bool <- {a:int}: . cannot assign a value of type { a: int } to type bool
        bool <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type bool
        bool <- int|string: U a value of type int converts to type bool only if it has the right form at run time
        bool <- string?: U a value of type none cannot be assigned to type bool
        bool <- output(str): . cannot assign a value of type output(string) to type bool
        bool <- promise(int): . cannot assign a value of type promise(int) to type bool
        bool <- "a": U a value of type string converts to type bool only if it has the right form at run time
        bool <- 1: U a value of type int converts to type bool only if it has the right form at run time
        bool <- null: . cannot assign a value of type null to type bool
        bool <- enum(A|B): U a value of type string converts to type bool only if it has the right form at run time
        int <- dynamic: U a value of type dynamic converts to type int only if it has the right form at run time
        int <- none: . cannot assign a value of type none to type int
        int <- bool: U a value of type bool converts to type int only if it has the right form at run time
        int <- number: U a value of type number converts to type int only if it has the right form at run time
        int <- string: U a value of type string converts to type int only if it has the right form at run time
        int <- Asset: . cannot assign a value of type Asset to type int
        int <- list(str): . cannot assign a value of type list(string) to type int
        int <- list(int): . cannot assign a value of type list(int) to type int
        int <- set(str): . cannot assign a value of type set(string) to type int
        int <- map(int): . cannot assign a value of type map(int) to type int
        int <- tuple(i,s): . cannot assign a value of type (int, string) to type int
        int <- {a:int}: . cannot assign a value of type { a: int } to type int
        int <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type int
        int <- int|string: U a value of type string converts to type int only if it has the right form at run time
        int <- string?: U a value of type none cannot be assigned to type int
        int <- output(str): . cannot assign a value of type output(string) to type int
        int <- promise(int): . cannot assign a value of type promise(int) to type int
        int <- "a": U a value of type string converts to type int only if it has the right form at run time
        int <- null: . cannot assign a value of type null to type int
        int <- enum(A|B): U a value of type string converts to type int only if it has the right form at run time
        number <- dynamic: U a value of type dynamic converts to type number only if it has the right form at run time
        number <- none: . cannot assign a value of type none to type number
        number <- bool: U a value of type bool converts to type number only if it has the right form at run time
        number <- string: U a value of type string converts to type number only if it has the right form at run time
        number <- Asset: . cannot assign a value of type Asset to type number
        number <- list(str): . cannot assign a value of type list(string) to type number
        number <- list(int): . cannot assign a value of type list(int) to type number
        number <- set(str): . cannot assign a value of type set(string) to type number
        number <- map(int): . cannot assign a value of type map(int) to type number
        number <- tuple(i,s): . cannot assign a value of type (int, string) to type number
        number <- {a:int}: . cannot assign a value of type { a: int } to type number
        number <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type number
        number <- int|string: U a value of type string converts to type number only if it has the right form at run time
        number <- string?: U a value of type none cannot be assigned to type number
        number <- output(str): . cannot assign a value of type output(string) to type number
        number <- promise(int): . cannot assign a value of type promise(int) to type number
        number <- "a": U a value of type string converts to type number only if it has the right form at run time
        number <- null: . cannot assign a value of type null to type number
        number <- enum(A|B): U a value of type string converts to type number only if it has the right form at run time
        string <- dynamic: U a value of type dynamic converts to type string only if it has the right form at run time
        string <- none: . cannot assign a value of type none to type string
        string <- Asset: . cannot assign a value of type Asset to type string
        string <- list(str): . cannot assign a value of type list(string) to type string
        string <- list(int): . cannot assign a value of type list(int) to type string
        string <- set(str): . cannot assign a value of type set(string) to type string
        string <- map(int): . cannot assign a value of type map(int) to type string
        string <- tuple(i,s): . cannot assign a value of type (int, string) to type string
        string <- {a:int}: . cannot assign a value of type { a: int } to type string
        string <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type string
        string <- string?: U a value of type none cannot be assigned to type string
        string <- output(str): . cannot assign a value of type output(string) to type string
        string <- promise(int): . cannot assign a value of type promise(int) to type string
        string <- null: . cannot assign a value of type null to type string
        Asset <- dynamic: U a value of type dynamic converts to type Asset only if it has the right form at run time
        Asset <- none: . cannot assign a value of type none to type Asset
        Asset <- bool: . cannot assign a value of type bool to type Asset
        Asset <- int: . cannot assign a value of type int to type Asset
        Asset <- number: . cannot assign a value of type number to type Asset
        Asset <- string: . cannot assign a value of type string to type Asset
        Asset <- list(str): . cannot assign a value of type list(string) to type Asset
        Asset <- list(int): . cannot assign a value of type list(int) to type Asset
        Asset <- set(str): . cannot assign a value of type set(string) to type Asset
        Asset <- map(int): . cannot assign a value of type map(int) to type Asset
        Asset <- tuple(i,s): . cannot assign a value of type (int, string) to type Asset
        Asset <- {a:int}: . cannot assign a value of type { a: int } to type Asset
        Asset <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type Asset
        Asset <- int|string: . cannot assign a value of type int | string to type Asset
        Asset <- string?: . cannot assign a value of type string? to type Asset
        Asset <- output(str): . cannot assign a value of type output(string) to type Asset
        Asset <- promise(int): . cannot assign a value of type promise(int) to type Asset
        Asset <- "a": . cannot assign a value of type "a" to type Asset
        Asset <- 1: . cannot assign a value of type 1 to type Asset
        Asset <- null: . cannot assign a value of type null to type Asset
        Asset <- enum(A|B): . cannot assign a value of type enum("A" | "B") to type Asset
        list(str) <- dynamic: U a value of type dynamic converts to type list(string) only if it has the right form at run time
        list(str) <- none: . cannot assign a value of type none to type list(string)
        list(str) <- bool: . cannot assign a value of type bool to type list(string)
        list(str) <- int: . cannot assign a value of type int to type list(string)
        list(str) <- number: . cannot assign a value of type number to type list(string)
        list(str) <- string: . cannot assign a value of type string to type list(string)
        list(str) <- Asset: . cannot assign a value of type Asset to type list(string)
        list(str) <- map(int): . cannot assign a value of type map(int) to type list(string)
        list(str) <- {a:int}: . cannot assign a value of type { a: int } to type list(string)
        list(str) <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type list(string)
        list(str) <- int|string: . cannot assign a value of type int | string to type list(string)
        list(str) <- string?: . cannot assign a value of type string? to type list(string)
        list(str) <- output(str): . cannot assign a value of type output(string) to type list(string)
        list(str) <- promise(int): . cannot assign a value of type promise(int) to type list(string)
        list(str) <- "a": . cannot assign a value of type "a" to type list(string)
        list(str) <- 1: . cannot assign a value of type 1 to type list(string)
        list(str) <- null: . cannot assign a value of type null to type list(string)
        list(str) <- enum(A|B): . cannot assign a value of type enum("A" | "B") to type list(string)
        list(int) <- dynamic: U a value of type dynamic converts to type list(int) only if it has the right form at run time
        list(int) <- none: . cannot assign a value of type none to type list(int)
        list(int) <- bool: . cannot assign a value of type bool to type list(int)
        list(int) <- int: . cannot assign a value of type int to type list(int)
        list(int) <- number: . cannot assign a value of type number to type list(int)
        list(int) <- string: . cannot assign a value of type string to type list(int)
        list(int) <- Asset: . cannot assign a value of type Asset to type list(int)
        list(int) <- list(str): U at `[*]`: a value of type string converts to type int only if it has the right form at run time
        list(int) <- set(str): U at `[*]`: a value of type string converts to type int only if it has the right form at run time
        list(int) <- map(int): . cannot assign a value of type map(int) to type list(int)
        list(int) <- tuple(i,s): U at `[1]`: a value of type string converts to type int only if it has the right form at run time
        list(int) <- {a:int}: . cannot assign a value of type { a: int } to type list(int)
        list(int) <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type list(int)
        list(int) <- int|string: . cannot assign a value of type int | string to type list(int)
        list(int) <- string?: . cannot assign a value of type string? to type list(int)
        list(int) <- output(str): . cannot assign a value of type output(string) to type list(int)
        list(int) <- promise(int): . cannot assign a value of type promise(int) to type list(int)
        list(int) <- "a": . cannot assign a value of type "a" to type list(int)
        list(int) <- 1: . cannot assign a value of type 1 to type list(int)
        list(int) <- null: . cannot assign a value of type null to type list(int)
        list(int) <- enum(A|B): . cannot assign a value of type enum("A" | "B") to type list(int)
        set(str) <- dynamic: U a value of type dynamic converts to type set(string) only if it has the right form at run time
        set(str) <- none: . cannot assign a value of type none to type set(string)
        set(str) <- bool: . cannot assign a value of type bool to type set(string)
        set(str) <- int: . cannot assign a value of type int to type set(string)
        set(str) <- number: . cannot assign a value of type number to type set(string)
        set(str) <- string: . cannot assign a value of type string to type set(string)
        set(str) <- Asset: . cannot assign a value of type Asset to type set(string)
        set(str) <- list(str): U a value of type list(string) converts to type set(string) only if it has the right form at run time
        set(str) <- list(int): U a value of type list(int) converts to type set(string) only if it has the right form at run time
        set(str) <- map(int): . cannot assign a value of type map(int) to type set(string)
        set(str) <- tuple(i,s): U a value of type (int, string) converts to type set(string) only if it has the right form at run time
        set(str) <- {a:int}: . cannot assign a value of type { a: int } to type set(string)
        set(str) <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type set(string)
        set(str) <- int|string: . cannot assign a value of type int | string to type set(string)
        set(str) <- string?: . cannot assign a value of type string? to type set(string)
        set(str) <- output(str): . cannot assign a value of type output(string) to type set(string)
        set(str) <- promise(int): . cannot assign a value of type promise(int) to type set(string)
        set(str) <- "a": . cannot assign a value of type "a" to type set(string)
        set(str) <- 1: . cannot assign a value of type 1 to type set(string)
        set(str) <- null: . cannot assign a value of type null to type set(string)
        set(str) <- enum(A|B): . cannot assign a value of type enum("A" | "B") to type set(string)
        map(int) <- dynamic: U a value of type dynamic converts to type map(int) only if it has the right form at run time
        map(int) <- none: . cannot assign a value of type none to type map(int)
        map(int) <- bool: . cannot assign a value of type bool to type map(int)
        map(int) <- int: . cannot assign a value of type int to type map(int)
        map(int) <- number: . cannot assign a value of type number to type map(int)
        map(int) <- string: . cannot assign a value of type string to type map(int)
        map(int) <- Asset: . cannot assign a value of type Asset to type map(int)
        map(int) <- list(str): . cannot assign a value of type list(string) to type map(int)
        map(int) <- list(int): . cannot assign a value of type list(int) to type map(int)
        map(int) <- set(str): . cannot assign a value of type set(string) to type map(int)
        map(int) <- tuple(i,s): . cannot assign a value of type (int, string) to type map(int)
        map(int) <- {a:int,b:s?}: U at `.b`: a value of type none cannot be assigned to type int
        map(int) <- int|string: . cannot assign a value of type int | string to type map(int)
        map(int) <- string?: . cannot assign a value of type string? to type map(int)
        map(int) <- output(str): . cannot assign a value of type output(string) to type map(int)
        map(int) <- promise(int): . cannot assign a value of type promise(int) to type map(int)
        map(int) <- "a": . cannot assign a value of type "a" to type map(int)
        map(int) <- 1: . cannot assign a value of type 1 to type map(int)
        map(int) <- null: . cannot assign a value of type null to type map(int)
        map(int) <- enum(A|B): . cannot assign a value of type enum("A" | "B") to type map(int)
        tuple(i,s) <- dynamic: U a value of type dynamic converts to type (int, string) only if it has the right form at run time
        tuple(i,s) <- none: . cannot assign a value of type none to type (int, string)
        tuple(i,s) <- bool: . cannot assign a value of type bool to type (int, string)
        tuple(i,s) <- int: . cannot assign a value of type int to type (int, string)
        tuple(i,s) <- number: . cannot assign a value of type number to type (int, string)
        tuple(i,s) <- string: . cannot assign a value of type string to type (int, string)
        tuple(i,s) <- Asset: . cannot assign a value of type Asset to type (int, string)
        tuple(i,s) <- list(str): U a value of type list(string) converts to type (int, string) only if it has the right form at run time
        tuple(i,s) <- list(int): U a value of type list(int) converts to type (int, string) only if it has the right form at run time
        tuple(i,s) <- set(str): U a value of type set(string) converts to type (int, string) only if it has the right form at run time
        tuple(i,s) <- map(int): . cannot assign a value of type map(int) to type (int, string)
        tuple(i,s) <- {a:int}: . cannot assign a value of type { a: int } to type (int, string)
        tuple(i,s) <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type (int, string)
        tuple(i,s) <- int|string: . cannot assign a value of type int | string to type (int, string)
        tuple(i,s) <- string?: . cannot assign a value of type string? to type (int, string)
        tuple(i,s) <- output(str): . cannot assign a value of type output(string) to type (int, string)
        tuple(i,s) <- promise(int): . cannot assign a value of type promise(int) to type (int, string)
        tuple(i,s) <- "a": . cannot assign a value of type "a" to type (int, string)
        tuple(i,s) <- 1: . cannot assign a value of type 1 to type (int, string)
        tuple(i,s) <- null: . cannot assign a value of type null to type (int, string)
        tuple(i,s) <- enum(A|B): . cannot assign a value of type enum("A" | "B") to type (int, string)
        {a:int} <- dynamic: U a value of type dynamic converts to type { a: int } only if it has the right form at run time
        {a:int} <- none: . cannot assign a value of type none to type { a: int }
        {a:int} <- bool: . cannot assign a value of type bool to type { a: int }
        {a:int} <- int: . cannot assign a value of type int to type { a: int }
        {a:int} <- number: . cannot assign a value of type number to type { a: int }
        {a:int} <- string: . cannot assign a value of type string to type { a: int }
        {a:int} <- Asset: . cannot assign a value of type Asset to type { a: int }
        {a:int} <- list(str): . cannot assign a value of type list(string) to type { a: int }
        {a:int} <- list(int): . cannot assign a value of type list(int) to type { a: int }
        {a:int} <- set(str): . cannot assign a value of type set(string) to type { a: int }
        {a:int} <- map(int): U a value of type map(int) converts to type { a: int } only if it has the right form at run time
        {a:int} <- tuple(i,s): . cannot assign a value of type (int, string) to type { a: int }
        {a:int} <- int|string: . cannot assign a value of type int | string to type { a: int }
        {a:int} <- string?: . cannot assign a value of type string? to type { a: int }
        {a:int} <- output(str): . cannot assign a value of type output(string) to type { a: int }
        {a:int} <- promise(int): . cannot assign a value of type promise(int) to type { a: int }
        {a:int} <- "a": . cannot assign a value of type "a" to type { a: int }
        {a:int} <- 1: . cannot assign a value of type 1 to type { a: int }
        {a:int} <- null: . cannot assign a value of type null to type { a: int }
        {a:int} <- enum(A|B): . cannot assign a value of type enum("A" | "B") to type { a: int }
        {a:int,b:s?} <- dynamic: U a value of type dynamic converts to type { a: int, b: string? } only if it has the right form at run time
        {a:int,b:s?} <- none: . cannot assign a value of type none to type { a: int, b: string? }
        {a:int,b:s?} <- bool: . cannot assign a value of type bool to type { a: int, b: string? }
        {a:int,b:s?} <- int: . cannot assign a value of type int to type { a: int, b: string? }
        {a:int,b:s?} <- number: . cannot assign a value of type number to type { a: int, b: string? }
        {a:int,b:s?} <- string: . cannot assign a value of type string to type { a: int, b: string? }
        {a:int,b:s?} <- Asset: . cannot assign a value of type Asset to type { a: int, b: string? }
        {a:int,b:s?} <- list(str): . cannot assign a value of type list(string) to type { a: int, b: string? }
        {a:int,b:s?} <- list(int): . cannot assign a value of type list(int) to type { a: int, b: string? }
        {a:int,b:s?} <- set(str): . cannot assign a value of type set(string) to type { a: int, b: string? }
        {a:int,b:s?} <- map(int): U a value of type map(int) converts to type { a: int, b: string? } only if it has the right form at run time
        {a:int,b:s?} <- tuple(i,s): . cannot assign a value of type (int, string) to type { a: int, b: string? }
        {a:int,b:s?} <- int|string: . cannot assign a value of type int | string to type { a: int, b: string? }
        {a:int,b:s?} <- string?: . cannot assign a value of type string? to type { a: int, b: string? }
        {a:int,b:s?} <- output(str): . cannot assign a value of type output(string) to type { a: int, b: string? }
        {a:int,b:s?} <- promise(int): . cannot assign a value of type promise(int) to type { a: int, b: string? }
        {a:int,b:s?} <- "a": . cannot assign a value of type "a" to type { a: int, b: string? }
        {a:int,b:s?} <- 1: . cannot assign a value of type 1 to type { a: int, b: string? }
        {a:int,b:s?} <- null: . cannot assign a value of type null to type { a: int, b: string? }
        {a:int,b:s?} <- enum(A|B): . cannot assign a value of type enum("A" | "B") to type { a: int, b: string? }
        int|string <- dynamic: U a value of type dynamic converts to type int | string only if it has the right form at run time
        int|string <- none: . cannot assign a value of type none to type int | string
        int|string <- Asset: . cannot assign a value of type Asset to type int | string
        int|string <- list(str): . cannot assign a value of type list(string) to type int | string
        int|string <- list(int): . cannot assign a value of type list(int) to type int | string
        int|string <- set(str): . cannot assign a value of type set(string) to type int | string
        int|string <- map(int): . cannot assign a value of type map(int) to type int | string
        int|string <- tuple(i,s): . cannot assign a value of type (int, string) to type int | string
        int|string <- {a:int}: . cannot assign a value of type { a: int } to type int | string
        int|string <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type int | string
        int|string <- string?: U a value of type none cannot be assigned to type int | string
        int|string <- output(str): . cannot assign a value of type output(string) to type int | string
        int|string <- promise(int): . cannot assign a value of type promise(int) to type int | string
        int|string <- null: . cannot assign a value of type null to type int | string
        string? <- dynamic: U a value of type dynamic converts to type string? only if it has the right form at run time
        string? <- Asset: . cannot assign a value of type Asset to type string?
        string? <- list(str): . cannot assign a value of type list(string) to type string?
        string? <- list(int): . cannot assign a value of type list(int) to type string?
        string? <- set(str): . cannot assign a value of type set(string) to type string?
        string? <- map(int): . cannot assign a value of type map(int) to type string?
        string? <- tuple(i,s): . cannot assign a value of type (int, string) to type string?
        string? <- {a:int}: . cannot assign a value of type { a: int } to type string?
        string? <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type string?
        string? <- output(str): . cannot assign a value of type output(string) to type string?
        string? <- promise(int): . cannot assign a value of type promise(int) to type string?
        output(str) <- dynamic: U a value of type dynamic converts to type output(string) only if it has the right form at run time
        output(str) <- none: . cannot assign a value of type none to type output(string)
        output(str) <- Asset: . cannot assign a value of type Asset to type output(string)
        output(str) <- list(str): . cannot assign a value of type list(string) to type output(string)
        output(str) <- list(int): . cannot assign a value of type list(int) to type output(string)
        output(str) <- set(str): . cannot assign a value of type set(string) to type output(string)
        output(str) <- map(int): . cannot assign a value of type map(int) to type output(string)
        output(str) <- tuple(i,s): . cannot assign a value of type (int, string) to type output(string)
        output(str) <- {a:int}: . cannot assign a value of type { a: int } to type output(string)
        output(str) <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type output(string)
        output(str) <- string?: U a value of type none cannot be assigned to type output(string)
        output(str) <- null: . cannot assign a value of type null to type output(string)
        promise(int) <- dynamic: U a value of type dynamic converts to type promise(int) only if it has the right form at run time
        promise(int) <- none: . cannot assign a value of type none to type promise(int)
        promise(int) <- bool: U a value of type bool converts to type int only if it has the right form at run time
        promise(int) <- number: U a value of type number converts to type int only if it has the right form at run time
        promise(int) <- string: U a value of type string converts to type int only if it has the right form at run time
        promise(int) <- Asset: . cannot assign a value of type Asset to type promise(int)
        promise(int) <- list(str): . cannot assign a value of type list(string) to type promise(int)
        promise(int) <- list(int): . cannot assign a value of type list(int) to type promise(int)
        promise(int) <- set(str): . cannot assign a value of type set(string) to type promise(int)
        promise(int) <- map(int): . cannot assign a value of type map(int) to type promise(int)
        promise(int) <- tuple(i,s): . cannot assign a value of type (int, string) to type promise(int)
        promise(int) <- {a:int}: . cannot assign a value of type { a: int } to type promise(int)
        promise(int) <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type promise(int)
        promise(int) <- int|string: U a value of type string converts to type int only if it has the right form at run time
        promise(int) <- string?: U a value of type none cannot be assigned to type promise(int)
        promise(int) <- output(str): . cannot assign a value of type output(string) to type promise(int): an output cannot become a promise
        promise(int) <- "a": U a value of type string converts to type int only if it has the right form at run time
        promise(int) <- null: . cannot assign a value of type null to type promise(int)
        promise(int) <- enum(A|B): U a value of type string converts to type int only if it has the right form at run time
        "a" <- dynamic: U a value of type dynamic converts to type "a" only if it has the right form at run time
        "a" <- none: . cannot assign a value of type none to type "a"
        "a" <- bool: U a value of type bool converts to type "a" only if it has the right form at run time
        "a" <- int: U a value of type int converts to type "a" only if it has the right form at run time
        "a" <- number: U a value of type number converts to type "a" only if it has the right form at run time
        "a" <- string: U a value of type string converts to type "a" only if it has the right form at run time
        "a" <- Asset: . cannot assign a value of type Asset to type "a"
        "a" <- list(str): . cannot assign a value of type list(string) to type "a"
        "a" <- list(int): . cannot assign a value of type list(int) to type "a"
        "a" <- set(str): . cannot assign a value of type set(string) to type "a"
        "a" <- map(int): . cannot assign a value of type map(int) to type "a"
        "a" <- tuple(i,s): . cannot assign a value of type (int, string) to type "a"
        "a" <- {a:int}: . cannot assign a value of type { a: int } to type "a"
        "a" <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type "a"
        "a" <- int|string: U a value of type int converts to type "a" only if it has the right form at run time
        "a" <- string?: U a value of type none cannot be assigned to type "a"
        "a" <- output(str): . cannot assign a value of type output(string) to type "a"
        "a" <- promise(int): . cannot assign a value of type promise(int) to type "a"
        "a" <- 1: . expected the value "a", got 1
        "a" <- null: . expected the value "a", got null
        "a" <- enum(A|B): U a value of type enum("A" | "B") converts to type "a" only if it has the right form at run time
        1 <- dynamic: U a value of type dynamic converts to type 1 only if it has the right form at run time
        1 <- none: . cannot assign a value of type none to type 1
        1 <- bool: U a value of type bool converts to type 1 only if it has the right form at run time
        1 <- int: U a value of type int converts to type 1 only if it has the right form at run time
        1 <- number: U a value of type number converts to type 1 only if it has the right form at run time
        1 <- string: U a value of type string converts to type 1 only if it has the right form at run time
        1 <- Asset: . cannot assign a value of type Asset to type 1
        1 <- list(str): . cannot assign a value of type list(string) to type 1
        1 <- list(int): . cannot assign a value of type list(int) to type 1
        1 <- set(str): . cannot assign a value of type set(string) to type 1
        1 <- map(int): . cannot assign a value of type map(int) to type 1
        1 <- tuple(i,s): . cannot assign a value of type (int, string) to type 1
        1 <- {a:int}: . cannot assign a value of type { a: int } to type 1
        1 <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type 1
        1 <- int|string: U a value of type int converts to type 1 only if it has the right form at run time
        1 <- string?: U a value of type none cannot be assigned to type 1
        1 <- output(str): . cannot assign a value of type output(string) to type 1
        1 <- promise(int): . cannot assign a value of type promise(int) to type 1
        1 <- "a": . expected the value 1, got "a"
        1 <- null: . expected the value 1, got null
        1 <- enum(A|B): U a value of type enum("A" | "B") converts to type 1 only if it has the right form at run time
        null <- dynamic: U a value of type dynamic converts to type null only if it has the right form at run time
        null <- none: U a value of type none converts to type null only if it has the right form at run time
        null <- bool: . cannot assign a value of type bool to type null
        null <- int: . cannot assign a value of type int to type null
        null <- number: . cannot assign a value of type number to type null
        null <- string: . cannot assign a value of type string to type null
        null <- Asset: . cannot assign a value of type Asset to type null
        null <- list(str): . cannot assign a value of type list(string) to type null
        null <- list(int): . cannot assign a value of type list(int) to type null
        null <- set(str): . cannot assign a value of type set(string) to type null
        null <- map(int): . cannot assign a value of type map(int) to type null
        null <- tuple(i,s): . cannot assign a value of type (int, string) to type null
        null <- {a:int}: . cannot assign a value of type { a: int } to type null
        null <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type null
        null <- int|string: . cannot assign a value of type int | string to type null
        null <- string?: U a value of type string cannot be assigned to type null
        null <- output(str): . cannot assign a value of type output(string) to type null
        null <- promise(int): . cannot assign a value of type promise(int) to type null
        null <- "a": . expected the value null, got "a"
        null <- 1: . expected the value null, got 1
        null <- enum(A|B): . cannot assign a value of type enum("A" | "B") to type null
        enum(A|B) <- dynamic: U a value of type dynamic converts to type enum("A" | "B") only if it has the right form at run time
        enum(A|B) <- none: . cannot assign a value of type none to type enum("A" | "B")
        enum(A|B) <- bool: U a value of type bool converts to type enum("A" | "B") only if it has the right form at run time
        enum(A|B) <- int: U a value of type int converts to type enum("A" | "B") only if it has the right form at run time
        enum(A|B) <- number: U a value of type number converts to type enum("A" | "B") only if it has the right form at run time
        enum(A|B) <- string: U a value of type string converts to type enum("A" | "B") only if it has the right form at run time
        enum(A|B) <- Asset: . cannot assign a value of type Asset to type enum("A" | "B")
        enum(A|B) <- list(str): . cannot assign a value of type list(string) to type enum("A" | "B")
        enum(A|B) <- list(int): . cannot assign a value of type list(int) to type enum("A" | "B")
        enum(A|B) <- set(str): . cannot assign a value of type set(string) to type enum("A" | "B")
        enum(A|B) <- map(int): . cannot assign a value of type map(int) to type enum("A" | "B")
        enum(A|B) <- tuple(i,s): . cannot assign a value of type (int, string) to type enum("A" | "B")
        enum(A|B) <- {a:int}: . cannot assign a value of type { a: int } to type enum("A" | "B")
        enum(A|B) <- {a:int,b:s?}: . cannot assign a value of type { a: int, b: string? } to type enum("A" | "B")
        enum(A|B) <- int|string: U a value of type int converts to type enum("A" | "B") only if it has the right form at run time
        enum(A|B) <- string?: U a value of type none cannot be assigned to type enum("A" | "B")
        enum(A|B) <- output(str): . cannot assign a value of type output(string) to type enum("A" | "B")
        enum(A|B) <- promise(int): . cannot assign a value of type promise(int) to type enum("A" | "B")
        enum(A|B) <- "a": . `"a"` is not a valid value of the enum pkg:index:Kind: valid values are `"A"`, `"B"`
        enum(A|B) <- 1: . `1` is not a valid value of the enum pkg:index:Kind: valid values are `"A"`, `"B"`
        enum(A|B) <- null: . cannot assign a value of type null to type enum("A" | "B")
    "#]].assert_eq(&out);
}

#[test]
fn unify_grid() {
    let grid = common::grid();
    let mut out = String::new();
    for (i, (al, a)) in grid.iter().enumerate() {
        for (bl, b) in &grid[i..] {
            let (t, k) = a.unify(b);
            out.push_str(&format!(
                "{al} + {bl} = {} {}\n",
                t.display_readable(),
                kind_letter(k)
            ));
        }
    }
    expect![[r#"
        dynamic + dynamic = dynamic S
        dynamic + none = none U
        dynamic + bool = bool U
        dynamic + int = int U
        dynamic + number = number U
        dynamic + string = string U
        dynamic + Asset = Asset U
        dynamic + list(str) = list(string) U
        dynamic + list(int) = list(int) U
        dynamic + set(str) = set(string) U
        dynamic + map(int) = map(int) U
        dynamic + tuple(i,s) = (int, string) U
        dynamic + {a:int} = { a: int } U
        dynamic + {a:int,b:s?} = { a: int, b: string? } U
        dynamic + int|string = int | string U
        dynamic + string? = string? U
        dynamic + output(str) = output(string) U
        dynamic + promise(int) = promise(int) U
        dynamic + "a" = "a" U
        dynamic + 1 = 1 U
        dynamic + null = null U
        dynamic + enum(A|B) = enum("A" | "B") U
        none + none = none S
        none + bool = bool? S
        none + int = int? S
        none + number = number? S
        none + string = string? S
        none + Asset = Asset? S
        none + list(str) = list(string)? S
        none + list(int) = list(int)? S
        none + set(str) = set(string)? S
        none + map(int) = map(int)? S
        none + tuple(i,s) = (int, string)? S
        none + {a:int} = { a: int }? S
        none + {a:int,b:s?} = { a: int, b: string? }? S
        none + int|string = int | string? S
        none + string? = string? S
        none + output(str) = output(string)? S
        none + promise(int) = promise(int)? S
        none + "a" = "a"? S
        none + 1 = 1? S
        none + null = none S
        none + enum(A|B) = enum("A" | "B")? S
        bool + bool = bool S
        bool + int = int U
        bool + number = number U
        bool + string = string S
        bool + Asset = Asset | bool S
        bool + list(str) = bool | list(string) S
        bool + list(int) = bool | list(int) S
        bool + set(str) = bool | set(string) S
        bool + map(int) = bool | map(int) S
        bool + tuple(i,s) = bool | (int, string) S
        bool + {a:int} = bool | { a: int } S
        bool + {a:int,b:s?} = bool | { a: int, b: string? } S
        bool + int|string = int | string S
        bool + string? = string? S
        bool + output(str) = output(string) S
        bool + promise(int) = promise(int) U
        bool + "a" = "a" U
        bool + 1 = 1 U
        bool + null = bool | null S
        bool + enum(A|B) = bool | enum("A" | "B") S
        int + int = int S
        int + number = number S
        int + string = string S
        int + Asset = Asset | int S
        int + list(str) = int | list(string) S
        int + list(int) = int | list(int) S
        int + set(str) = int | set(string) S
        int + map(int) = int | map(int) S
        int + tuple(i,s) = int | (int, string) S
        int + {a:int} = int | { a: int } S
        int + {a:int,b:s?} = int | { a: int, b: string? } S
        int + int|string = int | string S
        int + string? = string? S
        int + output(str) = output(string) S
        int + promise(int) = promise(int) S
        int + "a" = "a" U
        int + 1 = int S
        int + null = null | int S
        int + enum(A|B) = enum("A" | "B") | int S
        number + number = number S
        number + string = string S
        number + Asset = Asset | number S
        number + list(str) = list(string) | number S
        number + list(int) = list(int) | number S
        number + set(str) = number | set(string) S
        number + map(int) = map(int) | number S
        number + tuple(i,s) = number | (int, string) S
        number + {a:int} = number | { a: int } S
        number + {a:int,b:s?} = number | { a: int, b: string? } S
        number + int|string = int | string S
        number + string? = string? S
        number + output(str) = output(string) S
        number + promise(int) = promise(int) U
        number + "a" = "a" U
        number + 1 = number S
        number + null = null | number S
        number + enum(A|B) = enum("A" | "B") | number S
        string + string = string S
        string + Asset = Asset | string S
        string + list(str) = list(string) | string S
        string + list(int) = list(int) | string S
        string + set(str) = set(string) | string S
        string + map(int) = map(int) | string S
        string + tuple(i,s) = string | (int, string) S
        string + {a:int} = { a: int } | string S
        string + {a:int,b:s?} = { a: int, b: string? } | string S
        string + int|string = string S
        string + string? = string? S
        string + output(str) = output(string) S
        string + promise(int) = promise(int) U
        string + "a" = string S
        string + 1 = string S
        string + null = null | string S
        string + enum(A|B) = string S
        Asset + Asset = Asset S
        Asset + list(str) = Asset | list(string) S
        Asset + list(int) = Asset | list(int) S
        Asset + set(str) = Asset | set(string) S
        Asset + map(int) = Asset | map(int) S
        Asset + tuple(i,s) = Asset | (int, string) S
        Asset + {a:int} = Asset | { a: int } S
        Asset + {a:int,b:s?} = Asset | { a: int, b: string? } S
        Asset + int|string = Asset | int | string S
        Asset + string? = Asset | string? S
        Asset + output(str) = Asset | output(string) S
        Asset + promise(int) = Asset | promise(int) S
        Asset + "a" = Asset | "a" S
        Asset + 1 = Asset | 1 S
        Asset + null = Asset | null S
        Asset + enum(A|B) = Asset | enum("A" | "B") S
        list(str) + list(str) = list(string) S
        list(str) + list(int) = list(string) S
        list(str) + set(str) = list(string) S
        list(str) + map(int) = list(string) | map(int) S
        list(str) + tuple(i,s) = list(string) S
        list(str) + {a:int} = list(string) | { a: int } S
        list(str) + {a:int,b:s?} = list(string) | { a: int, b: string? } S
        list(str) + int|string = int | list(string) | string S
        list(str) + string? = list(string) | string? S
        list(str) + output(str) = list(string) | output(string) S
        list(str) + promise(int) = list(string) | promise(int) S
        list(str) + "a" = "a" | list(string) S
        list(str) + 1 = 1 | list(string) S
        list(str) + null = null | list(string) S
        list(str) + enum(A|B) = enum("A" | "B") | list(string) S
        list(int) + list(int) = list(int) S
        list(int) + set(str) = list(string) S
        list(int) + map(int) = list(int) | map(int) S
        list(int) + tuple(i,s) = list(string) S
        list(int) + {a:int} = list(int) | { a: int } S
        list(int) + {a:int,b:s?} = list(int) | { a: int, b: string? } S
        list(int) + int|string = int | list(int) | string S
        list(int) + string? = list(int) | string? S
        list(int) + output(str) = list(int) | output(string) S
        list(int) + promise(int) = list(int) | promise(int) S
        list(int) + "a" = "a" | list(int) S
        list(int) + 1 = 1 | list(int) S
        list(int) + null = null | list(int) S
        list(int) + enum(A|B) = enum("A" | "B") | list(int) S
        set(str) + set(str) = set(string) S
        set(str) + map(int) = map(int) | set(string) S
        set(str) + tuple(i,s) = set(string) U
        set(str) + {a:int} = { a: int } | set(string) S
        set(str) + {a:int,b:s?} = { a: int, b: string? } | set(string) S
        set(str) + int|string = int | set(string) | string S
        set(str) + string? = set(string) | string? S
        set(str) + output(str) = output(string) | set(string) S
        set(str) + promise(int) = promise(int) | set(string) S
        set(str) + "a" = "a" | set(string) S
        set(str) + 1 = 1 | set(string) S
        set(str) + null = null | set(string) S
        set(str) + enum(A|B) = enum("A" | "B") | set(string) S
        map(int) + map(int) = map(int) S
        map(int) + tuple(i,s) = map(int) | (int, string) S
        map(int) + {a:int} = map(int) S
        map(int) + {a:int,b:s?} = map(string?) S
        map(int) + int|string = int | map(int) | string S
        map(int) + string? = map(int) | string? S
        map(int) + output(str) = map(int) | output(string) S
        map(int) + promise(int) = map(int) | promise(int) S
        map(int) + "a" = "a" | map(int) S
        map(int) + 1 = 1 | map(int) S
        map(int) + null = null | map(int) S
        map(int) + enum(A|B) = enum("A" | "B") | map(int) S
        tuple(i,s) + tuple(i,s) = (int, string) S
        tuple(i,s) + {a:int} = { a: int } | (int, string) S
        tuple(i,s) + {a:int,b:s?} = { a: int, b: string? } | (int, string) S
        tuple(i,s) + int|string = int | string | (int, string) S
        tuple(i,s) + string? = string | (int, string)? S
        tuple(i,s) + output(str) = output(string) | (int, string) S
        tuple(i,s) + promise(int) = promise(int) | (int, string) S
        tuple(i,s) + "a" = "a" | (int, string) S
        tuple(i,s) + 1 = 1 | (int, string) S
        tuple(i,s) + null = null | (int, string) S
        tuple(i,s) + enum(A|B) = enum("A" | "B") | (int, string) S
        {a:int} + {a:int} = { a: int } S
        {a:int} + {a:int,b:s?} = { a: int, b: string? } S
        {a:int} + int|string = int | { a: int } | string S
        {a:int} + string? = { a: int } | string? S
        {a:int} + output(str) = { a: int } | output(string) S
        {a:int} + promise(int) = { a: int } | promise(int) S
        {a:int} + "a" = "a" | { a: int } S
        {a:int} + 1 = 1 | { a: int } S
        {a:int} + null = null | { a: int } S
        {a:int} + enum(A|B) = enum("A" | "B") | { a: int } S
        {a:int,b:s?} + {a:int,b:s?} = { a: int, b: string? } S
        {a:int,b:s?} + int|string = int | { a: int, b: string? } | string S
        {a:int,b:s?} + string? = { a: int, b: string? } | string? S
        {a:int,b:s?} + output(str) = { a: int, b: string? } | output(string) S
        {a:int,b:s?} + promise(int) = { a: int, b: string? } | promise(int) S
        {a:int,b:s?} + "a" = "a" | { a: int, b: string? } S
        {a:int,b:s?} + 1 = 1 | { a: int, b: string? } S
        {a:int,b:s?} + null = null | { a: int, b: string? } S
        {a:int,b:s?} + enum(A|B) = enum("A" | "B") | { a: int, b: string? } S
        int|string + int|string = int | string S
        int|string + string? = string? S
        int|string + output(str) = output(string) S
        int|string + promise(int) = promise(int) U
        int|string + "a" = int | string S
        int|string + 1 = int | string S
        int|string + null = null | int | string S
        int|string + enum(A|B) = int | string S
        string? + string? = string? S
        string? + output(str) = output(string) U
        string? + promise(int) = promise(int) U
        string? + "a" = string? S
        string? + 1 = string? S
        string? + null = string? S
        string? + enum(A|B) = string? S
        output(str) + output(str) = output(string) S
        output(str) + promise(int) = output(string) S
        output(str) + "a" = output(string) S
        output(str) + 1 = output(string) S
        output(str) + null = null | output(string) S
        output(str) + enum(A|B) = output(string) S
        promise(int) + promise(int) = promise(int) S
        promise(int) + "a" = promise(int) U
        promise(int) + 1 = promise(int) S
        promise(int) + null = null | promise(int) S
        promise(int) + enum(A|B) = promise(int) U
        "a" + "a" = "a" S
        "a" + 1 = 1 | "a" S
        "a" + null = null | "a" S
        "a" + enum(A|B) = "a" U
        1 + 1 = 1 S
        1 + null = 1 | null S
        1 + enum(A|B) = 1 U
        null + null = null S
        null + enum(A|B) = null | enum("A" | "B") S
        enum(A|B) + enum(A|B) = enum("A" | "B") S
    "#]]
    .assert_eq(&out);
}

#[test]
fn traverse_grid() {
    let traversers = [
        (".a", Traverser::attr("a")),
        (
            "[0]",
            Traverser::Index(Type::number_literal("0").expect("literal")),
        ),
        (
            "[5]",
            Traverser::Index(Type::number_literal("5").expect("literal")),
        ),
        ("[int]", Traverser::Index(Type::int())),
        ("[\"b\"]", Traverser::Index(Type::string_literal("b"))),
        ("[string]", Traverser::Index(Type::string())),
        ("[bool]", Traverser::Index(Type::bool())),
    ];
    let mut out = String::new();
    for (label, ty) in common::grid() {
        for (tl, t) in &traversers {
            let r = ty.traverse(t);
            out.push_str(&format!("{label}{tl} = {}", r.ty.display_readable()));
            if let Some((severity, reason)) = &r.diagnostic {
                out.push_str(&format!("  [{severity:?}: {reason}]"));
            }
            out.push('\n');
        }
    }
    expect![[r#"
        dynamic.a = dynamic
        dynamic[0] = dynamic
        dynamic[5] = dynamic
        dynamic[int] = dynamic
        dynamic["b"] = dynamic
        dynamic[string] = dynamic
        dynamic[bool] = dynamic
        none.a = none  [Warning: cannot traverse a value of type none]
        none[0] = none  [Warning: cannot traverse a value of type none]
        none[5] = none  [Warning: cannot traverse a value of type none]
        none[int] = none  [Warning: cannot traverse a value of type none]
        none["b"] = none  [Warning: cannot traverse a value of type none]
        none[string] = none  [Warning: cannot traverse a value of type none]
        none[bool] = none  [Warning: cannot traverse a value of type none]
        bool.a = dynamic  [Error: cannot traverse a value of type bool]
        bool[0] = dynamic  [Error: cannot traverse a value of type bool]
        bool[5] = dynamic  [Error: cannot traverse a value of type bool]
        bool[int] = dynamic  [Error: cannot traverse a value of type bool]
        bool["b"] = dynamic  [Error: cannot traverse a value of type bool]
        bool[string] = dynamic  [Error: cannot traverse a value of type bool]
        bool[bool] = dynamic  [Error: cannot traverse a value of type bool]
        int.a = dynamic  [Error: cannot traverse a value of type int]
        int[0] = dynamic  [Error: cannot traverse a value of type int]
        int[5] = dynamic  [Error: cannot traverse a value of type int]
        int[int] = dynamic  [Error: cannot traverse a value of type int]
        int["b"] = dynamic  [Error: cannot traverse a value of type int]
        int[string] = dynamic  [Error: cannot traverse a value of type int]
        int[bool] = dynamic  [Error: cannot traverse a value of type int]
        number.a = dynamic  [Error: cannot traverse a value of type number]
        number[0] = dynamic  [Error: cannot traverse a value of type number]
        number[5] = dynamic  [Error: cannot traverse a value of type number]
        number[int] = dynamic  [Error: cannot traverse a value of type number]
        number["b"] = dynamic  [Error: cannot traverse a value of type number]
        number[string] = dynamic  [Error: cannot traverse a value of type number]
        number[bool] = dynamic  [Error: cannot traverse a value of type number]
        string.a = dynamic  [Error: cannot traverse a value of type string]
        string[0] = dynamic  [Error: cannot traverse a value of type string]
        string[5] = dynamic  [Error: cannot traverse a value of type string]
        string[int] = dynamic  [Error: cannot traverse a value of type string]
        string["b"] = dynamic  [Error: cannot traverse a value of type string]
        string[string] = dynamic  [Error: cannot traverse a value of type string]
        string[bool] = dynamic  [Error: cannot traverse a value of type string]
        Asset.a = dynamic  [Error: cannot traverse a value of type Asset]
        Asset[0] = dynamic  [Error: cannot traverse a value of type Asset]
        Asset[5] = dynamic  [Error: cannot traverse a value of type Asset]
        Asset[int] = dynamic  [Error: cannot traverse a value of type Asset]
        Asset["b"] = dynamic  [Error: cannot traverse a value of type Asset]
        Asset[string] = dynamic  [Error: cannot traverse a value of type Asset]
        Asset[bool] = dynamic  [Error: cannot traverse a value of type Asset]
        list(str).a = dynamic  [Error: list indices must be numbers, not "a"]
        list(str)[0] = string
        list(str)[5] = string
        list(str)[int] = string
        list(str)["b"] = string  [Warning: list indices must be numbers, not "b"]
        list(str)[string] = string
        list(str)[bool] = string
        list(int).a = dynamic  [Error: list indices must be numbers, not "a"]
        list(int)[0] = int
        list(int)[5] = int
        list(int)[int] = int
        list(int)["b"] = int  [Warning: list indices must be numbers, not "b"]
        list(int)[string] = int
        list(int)[bool] = int
        set(str).a = dynamic  [Error: cannot traverse a value of type set(string)]
        set(str)[0] = dynamic  [Error: cannot traverse a value of type set(string)]
        set(str)[5] = dynamic  [Error: cannot traverse a value of type set(string)]
        set(str)[int] = dynamic  [Error: cannot traverse a value of type set(string)]
        set(str)["b"] = dynamic  [Error: cannot traverse a value of type set(string)]
        set(str)[string] = dynamic  [Error: cannot traverse a value of type set(string)]
        set(str)[bool] = dynamic  [Error: cannot traverse a value of type set(string)]
        map(int).a = int
        map(int)[0] = int
        map(int)[5] = int
        map(int)[int] = int
        map(int)["b"] = int
        map(int)[string] = int
        map(int)[bool] = int
        tuple(i,s).a = dynamic  [Error: tuple indices must be integers, not "a"]
        tuple(i,s)[0] = int
        tuple(i,s)[5] = dynamic  [Error: tuple index 5 must be between 0 and 1]
        tuple(i,s)[int] = int | string
        tuple(i,s)["b"] = dynamic  [Error: tuple indices must be integers, not "b"]
        tuple(i,s)[string] = dynamic  [Error: tuple indices must be integers, not string]
        tuple(i,s)[bool] = dynamic  [Error: tuple indices must be integers, not bool]
        {a:int}.a = int
        {a:int}[0] = dynamic  [Error: unknown property `0` of object { a: int }]
        {a:int}[5] = dynamic  [Error: unknown property `5` of object { a: int }]
        {a:int}[int] = int
        {a:int}["b"] = dynamic  [Error: unknown property `b` of object { a: int }]
        {a:int}[string] = int
        {a:int}[bool] = int
        {a:int,b:s?}.a = int
        {a:int,b:s?}[0] = dynamic  [Error: unknown property `0` of object { a: int, b: string? }]
        {a:int,b:s?}[5] = dynamic  [Error: unknown property `5` of object { a: int, b: string? }]
        {a:int,b:s?}[int] = int | string?
        {a:int,b:s?}["b"] = string?
        {a:int,b:s?}[string] = int | string?
        {a:int,b:s?}[bool] = int | string?
        int|string.a = dynamic  [Error: cannot traverse a value of type int | string: cannot traverse a value of type int]
        int|string[0] = dynamic  [Error: cannot traverse a value of type int | string: cannot traverse a value of type int]
        int|string[5] = dynamic  [Error: cannot traverse a value of type int | string: cannot traverse a value of type int]
        int|string[int] = dynamic  [Error: cannot traverse a value of type int | string: cannot traverse a value of type int]
        int|string["b"] = dynamic  [Error: cannot traverse a value of type int | string: cannot traverse a value of type int]
        int|string[string] = dynamic  [Error: cannot traverse a value of type int | string: cannot traverse a value of type int]
        int|string[bool] = dynamic  [Error: cannot traverse a value of type int | string: cannot traverse a value of type int]
        string?.a = dynamic  [Error: cannot traverse a value of type string?: cannot traverse a value of type string]
        string?[0] = dynamic  [Error: cannot traverse a value of type string?: cannot traverse a value of type string]
        string?[5] = dynamic  [Error: cannot traverse a value of type string?: cannot traverse a value of type string]
        string?[int] = dynamic  [Error: cannot traverse a value of type string?: cannot traverse a value of type string]
        string?["b"] = dynamic  [Error: cannot traverse a value of type string?: cannot traverse a value of type string]
        string?[string] = dynamic  [Error: cannot traverse a value of type string?: cannot traverse a value of type string]
        string?[bool] = dynamic  [Error: cannot traverse a value of type string?: cannot traverse a value of type string]
        output(str).a = output(dynamic)  [Error: cannot traverse a value of type string]
        output(str)[0] = output(dynamic)  [Error: cannot traverse a value of type string]
        output(str)[5] = output(dynamic)  [Error: cannot traverse a value of type string]
        output(str)[int] = output(dynamic)  [Error: cannot traverse a value of type string]
        output(str)["b"] = output(dynamic)  [Error: cannot traverse a value of type string]
        output(str)[string] = output(dynamic)  [Error: cannot traverse a value of type string]
        output(str)[bool] = output(dynamic)  [Error: cannot traverse a value of type string]
        promise(int).a = promise(dynamic)  [Error: cannot traverse a value of type int]
        promise(int)[0] = promise(dynamic)  [Error: cannot traverse a value of type int]
        promise(int)[5] = promise(dynamic)  [Error: cannot traverse a value of type int]
        promise(int)[int] = promise(dynamic)  [Error: cannot traverse a value of type int]
        promise(int)["b"] = promise(dynamic)  [Error: cannot traverse a value of type int]
        promise(int)[string] = promise(dynamic)  [Error: cannot traverse a value of type int]
        promise(int)[bool] = promise(dynamic)  [Error: cannot traverse a value of type int]
        "a".a = dynamic  [Error: cannot traverse a value of type string]
        "a"[0] = dynamic  [Error: cannot traverse a value of type string]
        "a"[5] = dynamic  [Error: cannot traverse a value of type string]
        "a"[int] = dynamic  [Error: cannot traverse a value of type string]
        "a"["b"] = dynamic  [Error: cannot traverse a value of type string]
        "a"[string] = dynamic  [Error: cannot traverse a value of type string]
        "a"[bool] = dynamic  [Error: cannot traverse a value of type string]
        1.a = dynamic  [Error: cannot traverse a value of type int]
        1[0] = dynamic  [Error: cannot traverse a value of type int]
        1[5] = dynamic  [Error: cannot traverse a value of type int]
        1[int] = dynamic  [Error: cannot traverse a value of type int]
        1["b"] = dynamic  [Error: cannot traverse a value of type int]
        1[string] = dynamic  [Error: cannot traverse a value of type int]
        1[bool] = dynamic  [Error: cannot traverse a value of type int]
        null.a = none  [Warning: cannot traverse a value of type none]
        null[0] = none  [Warning: cannot traverse a value of type none]
        null[5] = none  [Warning: cannot traverse a value of type none]
        null[int] = none  [Warning: cannot traverse a value of type none]
        null["b"] = none  [Warning: cannot traverse a value of type none]
        null[string] = none  [Warning: cannot traverse a value of type none]
        null[bool] = none  [Warning: cannot traverse a value of type none]
        enum(A|B).a = dynamic  [Error: cannot traverse a value of type enum("A" | "B")]
        enum(A|B)[0] = dynamic  [Error: cannot traverse a value of type enum("A" | "B")]
        enum(A|B)[5] = dynamic  [Error: cannot traverse a value of type enum("A" | "B")]
        enum(A|B)[int] = dynamic  [Error: cannot traverse a value of type enum("A" | "B")]
        enum(A|B)["b"] = dynamic  [Error: cannot traverse a value of type enum("A" | "B")]
        enum(A|B)[string] = dynamic  [Error: cannot traverse a value of type enum("A" | "B")]
        enum(A|B)[bool] = dynamic  [Error: cannot traverse a value of type enum("A" | "B")]
    "#]].assert_eq(&out);
}

/// A schema's reference into a package that is not available is an opaque type named by its
/// token: traversing it is `dynamic` with a warning that says why (the missing package is
/// reported where its schema is asked for), where another opaque type cannot be traversed.
#[test]
fn traversing_a_type_of_a_missing_package_is_a_warning() {
    let dangling = Type::opaque("aws:lb/loadBalancer:LoadBalancer");
    let r = dangling.traverse(&Traverser::attr("dnsName"));
    let (severity, reason) = r.diagnostic.expect("a diagnostic");
    assert_eq!(r.ty, Type::dynamic());
    assert_eq!(format!("{severity:?}"), "Warning");
    expect![[r#"cannot traverse a value of type type(aws:lb/loadBalancer:LoadBalancer): the schema that defines `aws:lb/loadBalancer:LoadBalancer` is not available"#]]
    .assert_eq(&reason.to_string());
    let asset = Type::asset().traverse(&Traverser::attr("x"));
    assert_eq!(
        format!("{:?}", asset.diagnostic.expect("a diagnostic").0),
        "Error"
    );
}
