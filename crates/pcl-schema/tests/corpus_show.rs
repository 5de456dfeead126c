//! Snapshots of `pcl schema show` for a sample of real schemas: resources of random, tls,
//! kubernetes and docker, functions (multi-argument, discriminated-union results), and the
//! enum and plain-property fixtures.

use std::path::Path;

use expect_test::expect_file;
use pcl_schema::token::package_of_token;
use pcl_schema::{describe, SchemaRegistry};

/// The descriptions of `tokens`, separated by blank lines (as `pcl schema show` prints them).
fn show(dir: &Path, tokens: &[&str]) -> String {
    let registry = SchemaRegistry::from_dirs([dir]);
    let descriptions: Vec<String> = tokens
        .iter()
        .map(|token| {
            let name = package_of_token(token).expect("well-formed token");
            let package = registry.package(name, None).expect("package loads");
            let found = package
                .lookup_any(token)
                .unwrap_or_else(|e| panic!("{token}: {e}"));
            describe(&registry, &package, &found)
        })
        .collect();
    descriptions.join("\n")
}

#[test]
fn codegen_old_sample() {
    let Some(root) = pcl_test_support::corpus("corpus/pulumi/schemas") else {
        return;
    };
    let text = show(
        &root.join("codegen-old"),
        &[
            "random:index/randomPet:RandomPet",
            "random::RandomString",
            "tls:index:PrivateKey",
            "tls::getPublicKey",
            "kubernetes:core/v1:Pod",
            "kubernetes:core/v1:ServiceSpecType",
            "kubernetes:apps/v1:DeploymentSpec",
            "docker:index:Container",
            "docker::ContainerCapabilities",
            "enum:index:Color",
            "plain-properties:index:ExampleResource",
            "plain-properties::ExampleType",
            "std:index:AbsMultiArgs",
        ],
    );
    expect_file!["snapshots/codegen-old.txt"].assert_eq(&text);
}

#[test]
fn unions_and_methods_sample() {
    let Some(root) = pcl_test_support::corpus("corpus/pulumi/schemas") else {
        return;
    };
    let text = show(
        &root.join("codegen-sdk/output-funcs"),
        &[
            "mypkg::getBastionShareableLink",
            "mypkg::funcWithConstInput",
            "mypkg::getIntegrationRuntimeObjectMetadatum",
        ],
    ) + "\n"
        + &show(
            &root.join("codegen-sdk/simple-methods-schema"),
            &["example::Foo"],
        );
    expect_file!["snapshots/unions-and-methods.txt"].assert_eq(&text);
}
