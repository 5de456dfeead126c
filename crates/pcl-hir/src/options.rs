//! The resource options of an `options` block: one list, with what each does (for checks,
//! suggestions, hover and completion) and which take property paths. The type of each option's
//! value is inference's (`pcl_sema::resource_option_type`, keyed by this enum).

/// A resource option (`options { ... }` of a resource or component).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum ResourceOption {
    AdditionalSecretOutputs,
    Aliases,
    CustomTimeouts,
    DeleteBeforeReplace,
    DeletedWith,
    DependsOn,
    EnvVarMappings,
    HideDiffs,
    Hooks,
    IgnoreChanges,
    Import,
    Parent,
    PluginDownloadUrl,
    Protect,
    Provider,
    Providers,
    Range,
    ReplaceOnChanges,
    ReplaceWith,
    ReplacementTrigger,
    RetainOnDelete,
    Version,
}

impl ResourceOption {
    /// Every option, sorted by name.
    pub const ALL: &'static [ResourceOption] = &[
        ResourceOption::AdditionalSecretOutputs,
        ResourceOption::Aliases,
        ResourceOption::CustomTimeouts,
        ResourceOption::DeleteBeforeReplace,
        ResourceOption::DeletedWith,
        ResourceOption::DependsOn,
        ResourceOption::EnvVarMappings,
        ResourceOption::HideDiffs,
        ResourceOption::Hooks,
        ResourceOption::IgnoreChanges,
        ResourceOption::Import,
        ResourceOption::Parent,
        ResourceOption::PluginDownloadUrl,
        ResourceOption::Protect,
        ResourceOption::Provider,
        ResourceOption::Providers,
        ResourceOption::Range,
        ResourceOption::ReplaceOnChanges,
        ResourceOption::ReplaceWith,
        ResourceOption::ReplacementTrigger,
        ResourceOption::RetainOnDelete,
        ResourceOption::Version,
    ];

    /// The name a program writes.
    pub fn name(self) -> &'static str {
        self.info().0
    }

    /// What the option does, in a sentence or two.
    pub fn doc(self) -> &'static str {
        self.info().1
    }

    pub fn from_name(name: &str) -> Option<ResourceOption> {
        ResourceOption::ALL
            .binary_search_by(|o| o.name().cmp(name))
            .ok()
            .map(|i| ResourceOption::ALL[i])
    }

    /// Whether an attribute of `options` named `name` sets `range`: `range` itself, or a name
    /// that is no option and most like `range` (`rang`). A misspelt `range` is reported as an
    /// unsupported option where it is written, and the node is still read as ranged, so that
    /// its body's uses of `range` and other nodes' indexing of it are not errors too.
    pub fn sets_range(name: &str) -> bool {
        match ResourceOption::from_name(name) {
            Some(option) => option == ResourceOption::Range,
            None => {
                pcl_diagnostics::suggest::best_match(name, ResourceOption::names())
                    == Some(ResourceOption::Range.name())
            }
        }
    }

    /// Whether a nested block named `name` holds a node's options, as far as `range` goes:
    /// `options` itself, or a misspelling of it (`option`). A misspelt block is reported as
    /// unsupported where it is written (with its fix), and a `range` in it still makes the node
    /// ranged, so that the uses of `range` and the indexing of the node are not errors too.
    pub fn is_options_block(name: &str) -> bool {
        name == "options" || pcl_diagnostics::suggest::best_match(name, ["options"]).is_some()
    }

    /// Every option name, sorted.
    pub fn names() -> impl Iterator<Item = &'static str> {
        ResourceOption::ALL.iter().map(|o| o.name())
    }

    /// Whether the value is a list of property paths of the resource's own inputs, not
    /// references to other nodes (`ignoreChanges`, ...).
    pub fn takes_property_paths(self) -> bool {
        use ResourceOption::*;
        matches!(
            self,
            AdditionalSecretOutputs | HideDiffs | IgnoreChanges | ReplaceOnChanges
        )
    }

    fn info(self) -> (&'static str, &'static str) {
        use ResourceOption::*;
        match self {
            AdditionalSecretOutputs => ("additionalSecretOutputs", "Output properties to mark secret (property paths)."),
            Aliases => ("aliases", "Earlier names or types of this resource, so that renaming it does not replace it."),
            CustomTimeouts => ("customTimeouts", "How long creating, updating, deleting or reading the resource may take (`create`, `update`, `delete`, `read`: durations such as \"5m\")."),
            DeleteBeforeReplace => ("deleteBeforeReplace", "Delete the existing resource before creating its replacement."),
            DeletedWith => ("deletedWith", "A resource whose deletion deletes this one, so this one is not deleted on its own."),
            DependsOn => ("dependsOn", "Resources this one depends on, besides those its inputs use."),
            EnvVarMappings => ("envVarMappings", "Environment variables the provider sees under other names."),
            HideDiffs => ("hideDiffs", "Properties whose changes are not shown in diffs (property paths)."),
            Hooks => ("hooks", "Resource hooks to run before or after operations on the resource."),
            IgnoreChanges => ("ignoreChanges", "Properties whose changes are ignored on update (property paths)."),
            Import => ("import", "The ID of an existing resource to adopt instead of creating one."),
            Parent => ("parent", "The resource this one is a child of."),
            PluginDownloadUrl => ("pluginDownloadURL", "Where to download the provider plugin from."),
            Protect => ("protect", "Refuse to delete the resource."),
            Provider => ("provider", "The provider resource that manages this resource."),
            Providers => ("providers", "Providers for this component's children, by package."),
            Range => ("range", "Creates one resource per element: a number (count), a list or a map; the body reads `range.key` and `range.value`."),
            ReplaceOnChanges => ("replaceOnChanges", "Properties whose changes replace the resource instead of updating it (property paths)."),
            ReplaceWith => ("replaceWith", "Resources whose replacement replaces this one."),
            ReplacementTrigger => ("replacementTrigger", "A value whose change replaces the resource."),
            RetainOnDelete => ("retainOnDelete", "Leave the cloud resource in place when it is deleted from the stack."),
            Version => ("version", "The version of the provider plugin to use (a semantic version)."),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::ResourceOption;

    #[test]
    fn options_are_sorted_and_found_by_name() {
        for pair in ResourceOption::ALL.windows(2) {
            assert!(pair[0].name() < pair[1].name());
        }
        for &option in ResourceOption::ALL {
            assert_eq!(ResourceOption::from_name(option.name()), Some(option));
        }
        assert_eq!(ResourceOption::from_name("protected"), None);
    }
}
