//! Snapshots of `pcl schema show` for a sample of real schemas: resources of random, tls,
//! kubernetes and docker, functions (multi-argument, discriminated-union results), and the
//! enum and plain-property fixtures.

mod common;

use std::path::Path;

use expect_test::expect_file;
use pcl_schema::SchemaRegistry;

/// The descriptions of `tokens` of the schemas in `dir`, as `pcl schema show` prints them.
fn show(dir: &Path, tokens: &[&str]) -> String {
    common::describe_all(&SchemaRegistry::from_dirs([dir]), tokens)
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
