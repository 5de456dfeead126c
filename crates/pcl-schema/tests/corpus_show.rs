//! Snapshots of `pcl schema show` for a sample of real schemas: resources of random, tls,
//! kubernetes and docker, functions (multi-argument, discriminated-union results), and the
//! enum and plain-property fixtures.

use std::path::Path;

use expect_test::expect_file;
use pcl_schema::{run_show, SchemaRegistry};

fn show(dir: &Path, tokens: &[&str]) -> String {
    let registry = SchemaRegistry::from_dirs([dir]);
    let tokens: Vec<String> = tokens.iter().map(|t| t.to_string()).collect();
    let (mut out, mut err) = (Vec::new(), Vec::new());
    run_show(&registry, &tokens, &mut out, &mut err).unwrap();
    let err = String::from_utf8(err).unwrap();
    assert!(err.is_empty(), "{err}");
    String::from_utf8(out).unwrap()
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
