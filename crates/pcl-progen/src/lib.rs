//! `pcl-progen`: a deterministic generator of large, realistic, multi-file PCL programs, for
//! scale benchmarks of `pcl check`.
//!
//! ```text
//! pcl-progen --resources N [--files F] [--seed S] [--overwrite] OUT_DIR
//! ```
//!
//! writes `F` files `OUT_DIR/part_0000.pp` … (default `F = max(1, N / 500)`) holding exactly
//! `N` `resource` blocks between them, and a component program in `OUT_DIR/components/app/`.
//! The same arguments give byte-identical output: the only source of variety is a SplitMix64
//! generator seeded with `S` (default 1).
//!
//! # Target schemas
//!
//! The programs are valid against exactly two package schemas, which a schema-aware checker
//! needs (as `NAME-VERSION.json` files in its schema directory):
//!
//! * `kubernetes` **3.7.2** (`corpus/pulumi/schemas/codegen-old/kubernetes-3.7.2.json`);
//! * `random` **4.11.2** (`corpus/pulumi/schemas/codegen-old/random-4.11.2.json`, identical to
//!   the copy in `codegen-utils/`).
//!
//! Resources come from a curated set of shapes ([`Shape`], [`RESOURCE_TOKENS`]): every attribute
//! set exists in the resource's `inputProperties` (or in the properties of the nested object
//! type) with a compatible type, every required input is set (`length` of `RandomString` and
//! `RandomPassword`, `min`/`max` of `RandomInteger`, `byteLength` of `RandomId`, `inputs` of
//! `RandomShuffle`, `roleRef` of `RoleBinding`, and the required properties of nested types
//! such as `DeploymentSpec.selector`/`template`, `PodSpec.containers`, `Container.name`,
//! `ContainerPort.containerPort`, `ServicePort.port`, `PolicyRule.verbs`, `RoleRef.*`,
//! `Subject.kind`/`name`, `HorizontalPodAutoscalerSpec.maxReplicas`/`scaleTargetRef`), and the
//! const inputs `apiVersion`/`kind` are left out. Programs read only output properties the
//! schema declares ([`Shape::outputs_read`]) and the implicit `id`. Neither schema has a
//! `functions` section, so the programs contain no `invoke` calls.
//!
//! # Shape of a program
//!
//! * The first file starts with a prelude of configs (`environment`, `replicaCount`,
//!   `appImage`, `regions`, `commonTags`, `enableDebug`) so that every kind of value exists
//!   from the start.
//! * Each file then has a few more `config` blocks (with types such as `int`, `list(string)`,
//!   `map(string)`, `bool`; some without a default, i.e. required, some `secret`), about 70%
//!   `resource` blocks mixed with top-level locals (string templates, tuples, objects, `for`
//!   expressions over lists and maps, `length`, `join`, `lookup`, `element`, `split`, `max`,
//!   `sha1`, `toBase64`, `toJSON`, `secret`, `range`, conditionals), and `output` blocks at
//!   the end.
//! * About 12% of the resources that can be ranged are: `range = 3` or an int config
//!   (`range.value` in the body), `range = <list>` (`range.value`), `range = <map or object>`
//!   (`range.key`/`range.value`), or `range = <bool config>` (conditional). Others are
//!   referred to as `r[0]`, `r["key"]` and `r[*].id`.
//! * About 15% of the resources have `options { dependsOn = [...] }`.
//! * References go to nodes generated earlier, 40% of the time to a node of an earlier file and
//!   otherwise to a recent one, so files refer to each other, names resolve, and the
//!   dependency graph is acyclic by construction. Node names are `{word}{Kind}{counter}` with a
//!   global counter, hence unique across the program.
//! * A few (`1`, or `3` from 20 resources on) `component <name> "./components/app"` blocks set
//!   the component's inputs and have their outputs (`serviceName`, `url`,
//!   `serviceAccountName`) used by later nodes.
//!
//! Every generated node is also recorded as a [`Symbol`] with the nodes it refers to;
//! [`Program::verify`] checks names are unique and references go backwards.

mod component;
mod gen;
mod rng;
mod value;

use std::collections::{BTreeMap, HashSet};
use std::io;
use std::path::Path;

pub use gen::{Shape, SHAPES};
pub use rng::SplitMix64;

/// The package schemas the programs are written against: `(name, version)`.
pub const SCHEMAS: &[(&str, &str)] = &[("kubernetes", "3.7.2"), ("random", "4.11.2")];

/// Every resource token a generated program may use (main program and component).
pub const RESOURCE_TOKENS: &[&str] = &[
    "random:index/randomPet:RandomPet",
    "random:index/randomString:RandomString",
    "random:index/randomPassword:RandomPassword",
    "random:index/randomInteger:RandomInteger",
    "random:index/randomId:RandomId",
    "random:index/randomUuid:RandomUuid",
    "random:index/randomShuffle:RandomShuffle",
    "kubernetes:core/v1:Namespace",
    "kubernetes:core/v1:ConfigMap",
    "kubernetes:core/v1:Secret",
    "kubernetes:core/v1:ServiceAccount",
    "kubernetes:apps/v1:Deployment",
    "kubernetes:core/v1:Service",
    "kubernetes:rbac.authorization.k8s.io/v1:Role",
    "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding",
    "kubernetes:autoscaling/v1:HorizontalPodAutoscaler",
    "kubernetes:policy/v1:PodDisruptionBudget",
];

pub use component::{
    DIR as COMPONENT_DIR, INPUTS as COMPONENT_INPUTS, OUTPUTS as COMPONENT_OUTPUTS,
    SOURCE as COMPONENT_SOURCE,
};

/// What to generate.
#[derive(Debug, Clone)]
pub struct Options {
    /// The number of `resource` blocks of the main program.
    pub resources: usize,
    /// The number of `.pp` files of the main program; `None`: `max(1, resources / 500)`.
    pub files: Option<usize>,
    pub seed: u64,
}

impl Options {
    pub fn file_count(&self) -> usize {
        self.files.unwrap_or(self.resources / 500).max(1)
    }
}

/// One file of the output, its path relative to the output directory (`/`-separated).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct GeneratedFile {
    pub path: String,
    pub text: String,
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NodeKind {
    Config,
    Local,
    Resource,
    Output,
    Component,
}

/// A node of the main program: its name, kind, file (index into [`Program::files`]) and the
/// nodes (indices into [`Program::symbols`]) its body refers to.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Symbol {
    pub name: String,
    pub kind: NodeKind,
    pub file: usize,
    pub deps: Vec<usize>,
}

/// Counts of what was generated.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Stats {
    pub resources: usize,
    pub ranged_resources: usize,
    pub locals: usize,
    pub configs: usize,
    pub outputs: usize,
    pub components: usize,
    /// Total bytes of all files, component included.
    pub bytes: usize,
    /// Resource blocks of the main program by token.
    pub by_token: BTreeMap<&'static str, usize>,
}

/// A generated program.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Program {
    /// The main program's files, directly in the output directory.
    pub files: Vec<GeneratedFile>,
    /// The component program's files, in [`COMPONENT_DIR`].
    pub component_files: Vec<GeneratedFile>,
    pub symbols: Vec<Symbol>,
    pub stats: Stats,
}

/// Generates a program. Deterministic: equal options give equal programs.
pub fn generate(options: &Options) -> Program {
    gen::generate(options)
}

/// What [`Program::verify`] finds wrong with a generated program (a bug of the generator).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum BrokenGuarantee {
    /// A node name generated twice.
    DefinedTwice(String),
    /// A node that refers to one generated after it (or to none).
    LaterReference { from: String, to: String },
}

impl std::fmt::Display for BrokenGuarantee {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            BrokenGuarantee::DefinedTwice(name) => write!(f, "`{name}` is defined twice"),
            BrokenGuarantee::LaterReference { from, to } => {
                write!(
                    f,
                    "`{from}` refers to `{to}`, which is not generated before it"
                )
            }
        }
    }
}

impl std::error::Error for BrokenGuarantee {}

impl Program {
    /// Every file, main program first.
    pub fn all_files(&self) -> impl Iterator<Item = &GeneratedFile> {
        self.files.iter().chain(&self.component_files)
    }

    /// Checks what the generator guarantees by construction: node names are unique, and
    /// every node refers only to nodes generated before it (so every reference resolves and
    /// there are no cycles).
    pub fn verify(&self) -> Result<(), BrokenGuarantee> {
        let mut seen = HashSet::new();
        for (i, symbol) in self.symbols.iter().enumerate() {
            if !seen.insert(symbol.name.as_str()) {
                return Err(BrokenGuarantee::DefinedTwice(symbol.name.clone()));
            }
            if let Some(&d) = symbol.deps.iter().find(|&&d| d >= i) {
                return Err(BrokenGuarantee::LaterReference {
                    from: symbol.name.clone(),
                    to: self
                        .symbols
                        .get(d)
                        .map_or("?", |s| s.name.as_str())
                        .to_owned(),
                });
            }
        }
        Ok(())
    }

    /// Writes the files under `dir` (created if needed). With `overwrite`, `.pp` files already
    /// in `dir` or in its component directory are removed first; without it, their presence is
    /// an error (they would become part of the program).
    pub fn write_to(&self, dir: &Path, overwrite: bool) -> io::Result<()> {
        let component_dir = dir.join(COMPONENT_DIR);
        for existing in [dir, component_dir.as_path()] {
            let Ok(entries) = std::fs::read_dir(existing) else {
                continue;
            };
            for entry in entries {
                let path = entry?.path();
                if path.is_file() && path.extension().is_some_and(|e| e == "pp") {
                    if !overwrite {
                        return Err(io::Error::new(
                            io::ErrorKind::AlreadyExists,
                            format!(
                                "{} already exists (pass --overwrite to replace the .pp files)",
                                path.display()
                            ),
                        ));
                    }
                    std::fs::remove_file(&path)?;
                }
            }
        }
        std::fs::create_dir_all(&component_dir)?;
        for file in self.all_files() {
            std::fs::write(dir.join(&file.path), &file.text)?;
        }
        Ok(())
    }
}
