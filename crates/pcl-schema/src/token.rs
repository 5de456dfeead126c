//! Pulumi type tokens: `pkg:module:member`, the `index` module, module formats, canonical forms, and
//! the "did you mean" suggestions for tokens that resolve to nothing.

use std::fmt;

use pcl_diagnostics::suggest;

/// The three parts of a token. Two-part tokens (`pkg:Member`) and an empty module (`pkg::Member`)
/// both mean the `index` module.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TokenParts<'a> {
    pub package: &'a str,
    pub module: &'a str,
    pub member: &'a str,
}

/// A token that is not `pkg:module:member` or `pkg:member`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct MalformedToken(pub String);

impl fmt::Display for MalformedToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "malformed token `{}`: expected `pkg:module:member` or `pkg:member`",
            self.0
        )
    }
}

impl std::error::Error for MalformedToken {}

/// Splits a token as a program writes it: `pkg:module:member`, `pkg::member` or `pkg:member`.
pub fn decompose_token(token: &str) -> Result<TokenParts<'_>, MalformedToken> {
    // Split without collecting: every resource's binding decomposes its token.
    let mut parts = token.split(':');
    let package = parts.next().unwrap_or_default();
    let malformed = || MalformedToken(token.to_string());
    let (module, member) = match (parts.next(), parts.next(), parts.next()) {
        (Some(member), None, _) => ("index", member),
        (Some(module), Some(member), None) => {
            (if module.is_empty() { "index" } else { module }, member)
        }
        _ => return Err(malformed()),
    };
    if package.is_empty() || member.is_empty() {
        return Err(malformed());
    }
    Ok(TokenParts {
        package,
        module,
        member,
    })
}

/// The package a program token refers to: the provider `pulumi:providers:aws` and its methods'
/// functions (`pulumi:providers:aws/terraformConfig`) belong to `aws`, other tokens to their first
/// part. `None` for a malformed token, or a provider token without a package
/// (`pulumi:providers:/terraformConfig`).
pub fn package_of_token(token: &str) -> Option<&str> {
    let parts = decompose_token(token).ok()?;
    if parts.package == "pulumi" && parts.module == "providers" {
        provider_method_parts(parts.member).map(|(package, _)| package)
    } else {
        Some(parts.package)
    }
}

/// The package and method of the member of a `pulumi:providers:` token: `aws` gives `("aws",
/// None)`, `aws/terraformConfig` gives `("aws", Some("terraformConfig"))`. `None` if the package
/// part is empty.
fn provider_method_parts(member: &str) -> Option<(&str, Option<&str>)> {
    let (package, method) = match member.split_once('/') {
        Some((package, method)) => (package, Some(method)),
        None => (member, None),
    };
    (!package.is_empty()).then_some((package, method))
}

/// The provider method a function token names: `pulumi:providers:aws/terraformConfig` gives
/// `("aws", "terraformConfig")`. `None` for any other token, including the provider's own
/// `pulumi:providers:aws`.
pub fn provider_method_of_token(token: &str) -> Option<(&str, &str)> {
    let parts = decompose_token(token).ok()?;
    if parts.package != "pulumi" || parts.module != "providers" {
        return None;
    }
    match provider_method_parts(parts.member)? {
        (package, Some(method)) if !method.is_empty() => Some((package, method)),
        _ => None,
    }
}

/// Checks a token that a schema defines (a key of `resources`, `functions` or `types`), with
/// Pulumi's rules: exactly three parts, and no member named `provider` in the root module.
pub fn check_definition_token(token: &str) -> Result<(), InvalidToken> {
    let parts: Vec<&str> = token.split(':').collect();
    let invalid = |rule| {
        Err(InvalidToken {
            token: token.to_owned(),
            rule,
        })
    };
    if parts.len() != 3 {
        return invalid(TokenRule::ThreeParts);
    }
    if (parts[1].is_empty() || parts[1] == "index") && parts[2] == "provider" {
        return invalid(TokenRule::ProviderReserved);
    }
    Ok(())
}

/// A token a schema defines that breaks one of Pulumi's rules.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct InvalidToken {
    pub token: String,
    pub rule: TokenRule,
}

/// The rules of [`check_definition_token`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum TokenRule {
    /// A token has three parts.
    ThreeParts,
    /// No member of the root module is named `provider`.
    ProviderReserved,
}

impl fmt::Display for InvalidToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let token = &self.token;
        match self.rule {
            TokenRule::ThreeParts => write!(f, "invalid token `{token}`: a token has three parts"),
            TokenRule::ProviderReserved => write!(
                f,
                "invalid token `{token}`: `provider` is a reserved word for the root module"
            ),
        }
    }
}

impl std::error::Error for InvalidToken {}

/// A package's `meta.moduleFormat`: a regular expression whose first capture group, applied to a
/// token's module part, gives the module a program sees (`s3/bucket` → `s3` for `(.*)(?:/[^/]*)`).
#[derive(Clone, Debug)]
pub struct ModuleFormat {
    regex: Option<regex_lite::Regex>,
}

impl Default for ModuleFormat {
    /// `(.*)`: the module part is the module.
    fn default() -> Self {
        ModuleFormat { regex: None }
    }
}

impl ModuleFormat {
    /// Compiles a module format; the error is the regex parser's.
    pub fn new(pattern: &str) -> Result<Self, regex_lite::Error> {
        if pattern == "(.*)" {
            return Ok(ModuleFormat::default());
        }
        regex_lite::Regex::new(pattern).map(|regex| ModuleFormat { regex: Some(regex) })
    }

    /// The module a program token names: like [`ModuleFormat::module_of`], except that a module
    /// the format does not match is kept as written instead of becoming the root module, so a
    /// wrong module (`aws:ec2:Bucket`) stays wrong rather than finding `aws::Bucket`.
    pub fn program_module_of<'t>(&self, token: &'t str) -> &'t str {
        self.module(token, Unmatched::KeepAsWritten)
    }

    /// The canonical form of a token a program wrote (see [`ModuleFormat::program_module_of`]).
    pub fn canonicalize_program_token(&self, package_name: &str, token: &str) -> Option<String> {
        self.canonical(package_name, token, Unmatched::KeepAsWritten)
    }

    /// The module a definition token belongs to, `""` for the root (`index`) module. Tokens without
    /// three parts, and `pulumi:pulumi:*` / `pulumi:providers:*`, are in the root module.
    pub fn module_of<'t>(&self, token: &'t str) -> &'t str {
        self.module(token, Unmatched::Root)
    }

    /// The canonical form of a token, `pkg:module:member` with the module given by this format and
    /// `pkg::member` for the root module. `None` for a malformed token.
    pub fn canonicalize(&self, package_name: &str, token: &str) -> Option<String> {
        self.canonical(package_name, token, Unmatched::Root)
    }

    fn module<'t>(&self, token: &'t str, unmatched: Unmatched) -> &'t str {
        let parts: Vec<&str> = token.split(':').collect();
        let [package, module, _] = parts.as_slice() else {
            return "";
        };
        if *package == "pulumi" && (*module == "pulumi" || *module == "providers") {
            return "";
        }
        let module = match &self.regex {
            None => *module,
            Some(regex) => match regex.captures(module).and_then(|c| c.get(1)) {
                Some(m) => m.as_str(),
                None => match unmatched {
                    Unmatched::KeepAsWritten => module,
                    Unmatched::Root => "",
                },
            },
        };
        if module == "index" {
            ""
        } else {
            module
        }
    }

    fn canonical(&self, package_name: &str, token: &str, unmatched: Unmatched) -> Option<String> {
        let parts = decompose_token(token).ok()?;
        let three = format!("{}:{}:{}", parts.package, parts.module, parts.member);
        let module = self.module(&three, unmatched);
        Some(format!("{package_name}:{module}:{}", parts.member))
    }
}

/// What a module the format does not match becomes.
#[derive(Clone, Copy)]
enum Unmatched {
    /// The root module (definition tokens, as Pulumi's schema binder does).
    Root,
    /// The module as written (program tokens, so that a wrong module stays an error).
    KeepAsWritten,
}

/// Up to `limit` of `candidates` closest to any of `queries` (spellings of one token, such as
/// the token as written and its canonical form), best first: tokens whose member matches a
/// query's member up to case come first, then by edit distance (case differences cost little).
/// A method's function token (`pulumi:providers:aws/terraformConfig`,
/// `aws:s3/bucket:Bucket/policy`) has the method's name as its member, so `aws::terraformConfig`
/// finds the provider method. Candidates too far away to be a plausible typo are dropped.
pub fn closest_tokens<'c>(
    queries: &[&str],
    candidates: impl IntoIterator<Item = &'c str>,
    limit: usize,
) -> Vec<String> {
    let member_of = |t: &str| {
        let member = t.rsplit(':').next().unwrap_or(t);
        member.rsplit('/').next().unwrap_or(member).to_lowercase()
    };
    let query_members: Vec<String> = queries.iter().map(|q| member_of(q)).collect();
    let mut scored: Vec<(bool, usize, &str)> = candidates
        .into_iter()
        .filter_map(|candidate| {
            let same_member = query_members.contains(&member_of(candidate));
            let distance = queries
                .iter()
                .filter(|q| {
                    // Within the typo threshold of this spelling.
                    let threshold = (q.chars().count() / 4).max(2) * 2;
                    edit_distance(q, candidate) <= threshold
                })
                .map(|q| edit_distance(q, candidate))
                .min();
            match (same_member, distance) {
                (true, d) => Some((false, d.unwrap_or(usize::MAX), candidate)),
                (false, Some(d)) => Some((true, d, candidate)),
                (false, None) => None,
            }
        })
        .collect();
    scored.sort();
    scored.dedup_by(|a, b| a.2 == b.2);
    scored
        .into_iter()
        .take(limit)
        .map(|(_, _, c)| c.to_string())
        .collect()
}

/// Twice the edit distance between the lowercased strings, plus one when they differ only in
/// case: changing only the case of characters costs one in total, so `aws:s3:bucket` is closer
/// to `aws:s3:Bucket` than any real typo.
fn edit_distance(a: &str, b: &str) -> usize {
    let folded = suggest::edit_distance(&a.to_lowercase(), &b.to_lowercase());
    folded * 2 + usize::from(folded == 0 && a != b)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn decompose_forms() {
        let parts = |t| decompose_token(t).map(|p| (p.package, p.module, p.member));
        assert_eq!(parts("aws:s3:Bucket"), Ok(("aws", "s3", "Bucket")));
        assert_eq!(
            parts("random::RandomPet"),
            Ok(("random", "index", "RandomPet"))
        );
        assert_eq!(
            parts("random:RandomPet"),
            Ok(("random", "index", "RandomPet"))
        );
        assert_eq!(
            parts("aws:s3/bucket:Bucket"),
            Ok(("aws", "s3/bucket", "Bucket"))
        );
        for bad in ["", "noParts", ":a:b", "a:b:", "a:b:c:d", "a:"] {
            let err = decompose_token(bad).unwrap_err();
            assert_eq!(
                err.to_string(),
                format!("malformed token `{bad}`: expected `pkg:module:member` or `pkg:member`")
            );
        }
    }

    #[test]
    fn provider_tokens_belong_to_their_package() {
        assert_eq!(package_of_token("pulumi:providers:aws"), Some("aws"));
        assert_eq!(package_of_token("aws:s3:Bucket"), Some("aws"));
        assert_eq!(
            package_of_token("pulumi:pulumi:StackReference"),
            Some("pulumi")
        );
        assert_eq!(package_of_token("bad"), None);
    }

    #[test]
    fn provider_method_tokens_belong_to_the_provider_package() {
        assert_eq!(
            package_of_token("pulumi:providers:aws/terraformConfig"),
            Some("aws")
        );
        assert_eq!(package_of_token("aws:s3/bucket:Bucket"), Some("aws"));
        assert_eq!(
            package_of_token("widgets:index/gadget:Gadget/spin"),
            Some("widgets")
        );
        assert_eq!(package_of_token("pulumi:providers:/terraformConfig"), None);
        assert_eq!(package_of_token("pulumi:providers:aws/"), Some("aws"));
        assert_eq!(
            provider_method_of_token("pulumi:providers:aws/terraformConfig"),
            Some(("aws", "terraformConfig"))
        );
        for other in [
            "pulumi:providers:aws",
            "pulumi:providers:aws/",
            "pulumi:providers:/terraformConfig",
            "pulumi:pulumi:StackReference",
            "widgets:index/gadget:Gadget/spin",
            "bad",
        ] {
            assert_eq!(provider_method_of_token(other), None, "{other}");
        }
    }

    #[test]
    fn definition_tokens() {
        assert!(check_definition_token("a:b:c").is_ok());
        assert_eq!(
            check_definition_token("fake-provider:noModulePart")
                .unwrap_err()
                .to_string(),
            "invalid token `fake-provider:noModulePart`: a token has three parts"
        );
        assert_eq!(
            check_definition_token("fake-provider::provider")
                .unwrap_err()
                .to_string(),
            "invalid token `fake-provider::provider`: `provider` is a reserved word for the root module"
        );
        assert!(check_definition_token("fake-provider:index:provider").is_err());
        assert!(check_definition_token("fake-provider:mod:provider").is_ok());
    }

    #[test]
    fn module_formats() {
        let aws = ModuleFormat::new("(.*)(?:/[^/]*)").unwrap();
        assert_eq!(aws.module_of("aws:s3/bucket:Bucket"), "s3");
        assert_eq!(aws.module_of("random:index/randomPet:RandomPet"), "");
        assert_eq!(aws.module_of("aws:s3:Bucket"), "");
        assert_eq!(aws.program_module_of("aws:s3:Bucket"), "s3");
        assert_eq!(aws.program_module_of("aws:index:Provider"), "");
        assert_eq!(aws.program_module_of("aws:s3/bucket:Bucket"), "s3");
        assert_eq!(
            aws.canonicalize_program_token("aws", "aws:ec2:Bucket")
                .as_deref(),
            Some("aws:ec2:Bucket")
        );
        assert_eq!(
            aws.canonicalize("aws", "aws:s3/bucket:Bucket").as_deref(),
            Some("aws:s3:Bucket")
        );
        assert_eq!(
            aws.canonicalize("random", "random:index/randomPet:RandomPet")
                .as_deref(),
            Some("random::RandomPet")
        );
        let plain = ModuleFormat::default();
        assert_eq!(plain.module_of("k:core/v1:Pod"), "core/v1");
        assert_eq!(plain.module_of("k:index:Provider"), "");
        assert_eq!(plain.module_of("pulumi:providers:k"), "");
        assert_eq!(
            plain.canonicalize("random", "random:RandomPet").as_deref(),
            Some("random::RandomPet")
        );
        let underscore = ModuleFormat::new("(.*)(?:_[^_]*)").unwrap();
        assert_eq!(
            underscore.module_of("module-format:mod_Resource:Resource"),
            "mod"
        );
        assert!(ModuleFormat::new("(unclosed").is_err());
        assert_eq!(plain.canonicalize("x", "bad"), None);
    }

    #[test]
    fn suggestions_prefer_same_member_then_small_edits() {
        let candidates = [
            "aws:s3:Bucket",
            "aws:s3:BucketPolicy",
            "aws:ec2:Instance",
            "aws:s3:Bucket2",
        ];
        assert_eq!(
            closest_tokens(&["aws:s3:bucket"], candidates, 3),
            ["aws:s3:Bucket", "aws:s3:Bucket2"]
        );
        assert_eq!(
            closest_tokens(&["aws:ec2:Bucket"], candidates, 1),
            ["aws:s3:Bucket"]
        );
        assert_eq!(
            closest_tokens(&["aws:s3:Buckte"], candidates, 1),
            ["aws:s3:Bucket"]
        );
        assert!(closest_tokens(&["gcp:storage:Thing"], candidates, 3).is_empty());
    }
}
