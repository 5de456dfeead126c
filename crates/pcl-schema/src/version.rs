//! The one rule for choosing which schema file provides a package, shared by the
//! [`SchemaRegistry`](crate::SchemaRegistry) and the checker's `package_schema` query.

/// No candidate has the version asked for (or there is no candidate at all).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct VersionNotFound {
    /// The versions the candidates do have, highest first, each once.
    pub available: Vec<String>,
}

/// Chooses among the schema files of one package, given as their versions in search order
/// (`None`: a file named without a version). With `wanted` (a leading `v` allowed), only a file
/// of exactly that version will do, as in Pulumi, which never substitutes another version; a
/// `wanted` that is not a semantic version matches nothing. Without it, the highest version
/// wins, files without a version sorting lowest. Between files of one version the first in
/// search order wins, so an earlier directory overrides a later one.
pub fn choose_version(
    candidates: &[Option<semver::Version>],
    wanted: Option<&str>,
) -> Result<usize, VersionNotFound> {
    let chosen = match wanted {
        Some(wanted) => {
            let wanted = semver::Version::parse(wanted.strip_prefix('v').unwrap_or(wanted)).ok();
            candidates
                .iter()
                .position(|v| wanted.is_some() && *v == wanted)
        }
        // `max_by` keeps the last of equal elements; iterating in reverse makes it the first.
        None => candidates
            .iter()
            .enumerate()
            .rev()
            .max_by(|(_, a), (_, b)| a.cmp(b))
            .map(|(i, _)| i),
    };
    chosen.ok_or_else(|| {
        let mut available: Vec<&semver::Version> = candidates.iter().flatten().collect();
        available.sort_by(|a, b| b.cmp(a));
        available.dedup();
        VersionNotFound {
            available: available.iter().map(|v| v.to_string()).collect(),
        }
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn versions(list: &[Option<&str>]) -> Vec<Option<semver::Version>> {
        list.iter()
            .map(|v| v.map(|v| semver::Version::parse(v).unwrap()))
            .collect()
    }

    #[test]
    fn highest_without_a_wanted_version() {
        let c = versions(&[Some("1.2.0"), None, Some("2.0.0-beta.1"), Some("1.10.0")]);
        assert_eq!(choose_version(&c, None), Ok(2));
        // A file without a version is chosen only when it is alone.
        assert_eq!(choose_version(&versions(&[None]), None), Ok(0));
        assert_eq!(
            choose_version(&versions(&[None, Some("0.0.1")]), None),
            Ok(1)
        );
    }

    #[test]
    fn first_in_search_order_between_equal_versions() {
        let c = versions(&[Some("1.0.0"), Some("2.0.0"), Some("2.0.0"), None, None]);
        assert_eq!(choose_version(&c, None), Ok(1));
        assert_eq!(choose_version(&c, Some("2.0.0")), Ok(1));
        assert_eq!(choose_version(&versions(&[None, None]), None), Ok(0));
    }

    #[test]
    fn exactly_the_wanted_version() {
        let c = versions(&[Some("1.0.0"), Some("1.2.0"), None]);
        assert_eq!(choose_version(&c, Some("1.0.0")), Ok(0));
        assert_eq!(choose_version(&c, Some("v1.2.0")), Ok(1));
        let missing = VersionNotFound {
            available: vec!["1.2.0".into(), "1.0.0".into()],
        };
        assert_eq!(choose_version(&c, Some("1.1.0")), Err(missing.clone()));
        // Not a version: matches nothing, not even a file without a version.
        assert_eq!(choose_version(&c, Some("latest")), Err(missing));
    }

    #[test]
    fn no_candidates() {
        let none = VersionNotFound { available: vec![] };
        assert_eq!(choose_version(&[], None), Err(none.clone()));
        assert_eq!(choose_version(&[], Some("1.0.0")), Err(none));
        // Duplicates are listed once.
        let c = versions(&[Some("1.0.0"), Some("1.0.0"), None]);
        assert_eq!(
            choose_version(&c, Some("2.0.0")),
            Err(VersionNotFound {
                available: vec!["1.0.0".into()]
            })
        );
    }
}
