//! Mapping schema definitions to PCL types (memoized per package).

use crate::diagnostic::SchemaDiagnostic;
use crate::package::Package;
use crate::registry::SchemaRegistry;

/// Maps every definition of `package` to PCL types and reports what could not be mapped.
pub(crate) fn check_types(_package: &Package, _registry: &SchemaRegistry) -> Vec<SchemaDiagnostic> {
    Vec::new()
}
