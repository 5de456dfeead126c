//! Provider methods (`test_data/schemas/methods`): their function tokens
//! (`pulumi:providers:lamp/dim`) belong to the provider's package, are found as the schema writes
//! them, draw sensible suggestions when misspelled, and describe as functions and as methods.

mod common;

use expect_test::expect;
use pcl_schema::token::{package_of_token, provider_method_of_token};
use pcl_schema::{check_package, DefinitionKind, SchemaRegistry, TypeMapper};

fn registry() -> SchemaRegistry {
    SchemaRegistry::from_dirs(
        [pcl_test_support::workspace_root().join("test_data/schemas/methods")],
    )
}

#[test]
fn method_tokens_belong_to_the_provider_package() {
    for token in [
        "pulumi:providers:lamp/terraformConfig",
        "pulumi:providers:lamp/dim",
        "pulumi:providers:lamp",
        "lamp:index/bulb:Bulb",
    ] {
        assert_eq!(package_of_token(token), Some("lamp"), "{token}");
    }
    assert_eq!(
        provider_method_of_token("pulumi:providers:lamp/dim"),
        Some(("lamp", "dim"))
    );
    assert_eq!(provider_method_of_token("pulumi:providers:lamp"), None);
}

#[test]
fn method_functions_are_found_as_the_schema_writes_them() {
    let registry = registry();
    let package = registry.package("lamp", None).unwrap();
    for token in [
        "pulumi:providers:lamp/terraformConfig",
        "pulumi:providers:lamp/dim",
    ] {
        for found in [
            package.lookup_function(token).unwrap(),
            package.lookup_any(token).unwrap(),
        ] {
            assert_eq!(found.kind, DefinitionKind::Function, "{token}");
            assert_eq!(found.schema_token, token);
            assert_eq!(found.canonical_token, token);
        }
        assert!(package.lookup_resource(token).is_err(), "{token}");
    }
    // The provider itself is still the resource.
    let provider = package.lookup_any("pulumi:providers:lamp").unwrap();
    assert_eq!(provider.kind, DefinitionKind::Resource);
    assert!(package.resource(&provider).spec.is_provider);
    assert!(check_package(&package, &registry).is_empty());
}

#[test]
fn misspelled_method_functions_draw_suggestions() {
    let registry = registry();
    let package = registry.package("lamp", None).unwrap();
    let messages: Vec<String> = [
        package.lookup_function("pulumi:providers:lamp/Dim"),
        package.lookup_function("pulumi:providers:lamp/terraformConfg"),
        package.lookup_function("lamp::terraformConfig"),
        package.lookup_function("lamp:index:dim"),
        package.lookup_any("pulumi:providers:lamp/switchOff"),
        package.lookup_any("pulumi:providers:lamps"),
    ]
    .into_iter()
    .map(|r| r.unwrap_err().to_string())
    .collect();
    expect![[r#"
        unknown function `pulumi:providers:lamp/Dim` in package `lamp`
        help: did you mean `pulumi:providers:lamp/dim`?
        unknown function `pulumi:providers:lamp/terraformConfg` in package `lamp`
        help: did you mean `pulumi:providers:lamp/terraformConfig`?
        unknown function `lamp::terraformConfig` in package `lamp`
        help: did you mean `pulumi:providers:lamp/terraformConfig`?
        unknown function `lamp:index:dim` in package `lamp`
        help: did you mean `pulumi:providers:lamp/dim`?
        unknown token `pulumi:providers:lamp/switchOff` in package `lamp`
        unknown token `pulumi:providers:lamps` in package `lamp`
        help: did you mean `pulumi:providers:lamp/dim`?"#]]
    .assert_eq(&messages.join("\n"));
}

#[test]
fn method_self_is_the_provider() {
    let registry = registry();
    let package = registry.package("lamp", None).unwrap();
    let mapper = TypeMapper::new(&registry);
    let provider = package.lookup_resource("pulumi:providers:lamp").unwrap();
    let dim = mapper.method_signature(&package, &provider, "dim").unwrap();
    let found = package
        .lookup_function("pulumi:providers:lamp/dim")
        .unwrap();
    let function = mapper.function_signature(&package, &found).unwrap();
    expect![[r#"
        call: { level: number } -> output({ dimmed: int })
        invoke: { __self__: pulumi:providers:lamp, level: number }"#]]
    .assert_eq(&format!(
        "call: {} -> {}\ninvoke: {}",
        dim.args.display_readable(),
        dim.result.display_readable(),
        function.plain_args.display_readable()
    ));
}

#[test]
fn method_functions_describe_their_provider() {
    expect![[r#"
        function pulumi:providers:lamp/dim
          Dims every bulb.
        arguments:
          __self__  pulumi:providers:lamp  required
          level     number                 required  From 0 to 1.
        returns an object R:
          dimmed  int  required
        invoke returns promise(R), or output(R) when an argument is an output
        a method of pulumi:providers:lamp, called as call(resource, "dim", args):
          dim({ level: number }) -> output({ dimmed: int })

        function pulumi:providers:lamp/terraformConfig
          The provider's configuration as a Terraform config object.
        arguments:
          __self__  pulumi:providers:lamp  required
        returns an object R:
          result  map(dynamic)  required
        invoke returns promise(R), or output(R) when an argument is an output
        a method of pulumi:providers:lamp, called as call(resource, "terraformConfig", args):
          terraformConfig({}?) -> output({ result: map(dynamic) })
    "#]]
    .assert_eq(&common::describe_all(
        &registry(),
        &[
            "pulumi:providers:lamp/dim",
            "pulumi:providers:lamp/terraformConfig",
        ],
    ));
}
