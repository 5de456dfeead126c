//! Helpers shared by the schema tests.

use pcl_schema::token::package_of_token;
use pcl_schema::{describe, SchemaRegistry};

/// The descriptions of `tokens`, separated by blank lines (as `pcl schema show` prints them).
pub fn describe_all(registry: &SchemaRegistry, tokens: &[&str]) -> String {
    let descriptions: Vec<String> = tokens
        .iter()
        .map(|token| {
            let name = package_of_token(token).expect("well-formed token");
            let package = registry.package(name, None).expect("package loads");
            let found = package
                .lookup_any(token)
                .unwrap_or_else(|e| panic!("{token}: {e}"));
            describe(registry, &package, &found)
        })
        .collect();
    descriptions.join("\n")
}
