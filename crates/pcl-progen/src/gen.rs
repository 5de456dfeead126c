//! The generator proper: a single pass that writes nodes file by file and keeps pools of the
//! expressions defined so far, grouped by type. A node only ever draws from the pools, so it
//! refers only to names generated before it (no cycles, nothing undefined), and every value it
//! passes somewhere has the type that place expects.

use crate::rng::SplitMix64;
use crate::value::{lit, obj, write_attrs, write_value, V};
use crate::{component, GeneratedFile, NodeKind, Options, Program, Stats, Symbol};

/// Application names, combined with a node kind and a counter into node names
/// (`checkoutDeployment12`) and Kubernetes object names (`checkout-deployment-12`).
const WORDS: &[&str] = &[
    "checkout",
    "billing",
    "search",
    "catalog",
    "auth",
    "payments",
    "inventory",
    "shipping",
    "frontend",
    "gateway",
    "orders",
    "reviews",
    "profile",
    "notify",
    "ledger",
    "analytics",
    "media",
    "session",
    "pricing",
    "cart",
    "recommend",
    "audit",
    "metrics",
    "ingest",
    "exporter",
    "reports",
    "tenant",
    "identity",
    "storage",
    "queue",
];

/// How often a reference goes to a node of an earlier file (otherwise to a recent node).
const CROSS_FILE_PERCENT: usize = 40;
/// How far back "recent" reaches, in entries of a pool.
const RECENT_WINDOW: usize = 48;
/// How often a resource that can be ranged is.
const RANGED_PERCENT: usize = 12;
/// How often a resource gets `dependsOn`.
const DEPENDS_ON_PERCENT: usize = 15;

/// An expression that can be used elsewhere, rooted at the node `sym`, defined in `file`.
#[derive(Clone)]
struct Val {
    text: String,
    sym: u32,
    file: u32,
}

/// A map-typed value and the keys it is known to have (possibly none).
struct MapVal {
    val: Val,
    keys: Vec<String>,
}

/// A deployment: its name, the expression of its pod labels, and its `app` label.
struct DeployVal {
    name: Val,
    labels: String,
    app: String,
}

trait InFile {
    fn file(&self) -> u32;
}

impl InFile for Val {
    fn file(&self) -> u32 {
        self.file
    }
}

impl InFile for MapVal {
    fn file(&self) -> u32 {
        self.val.file
    }
}

impl InFile for DeployVal {
    fn file(&self) -> u32 {
        self.name.file
    }
}

/// The expressions defined so far, by type. "Plain" pools hold values that are never
/// eventual (configs and locals computed from them); the others may hold outputs.
#[derive(Default)]
struct Pools {
    /// `string` (possibly output).
    strings: Vec<Val>,
    /// `string`, never output.
    plain_strings: Vec<Val>,
    /// Plain strings that fit in a Kubernetes object name (`environment`, name templates).
    names: Vec<Val>,
    /// Outputs that fit in a name: pet names, random suffixes, object names.
    name_outputs: Vec<Val>,
    /// Host names, URLs and service names (possibly output).
    endpoints: Vec<Val>,
    /// Log levels (plain).
    levels: Vec<Val>,
    /// `int` (possibly output).
    ints: Vec<Val>,
    /// `int`, never output.
    plain_ints: Vec<Val>,
    /// `bool` configs.
    bools: Vec<Val>,
    /// `list(string)` or a tuple of strings, never output.
    lists: Vec<Val>,
    /// `output(list(string))`: shuffle results and splats of ranged resources.
    eventual_lists: Vec<Val>,
    /// `map(string)` or an object of strings, never output.
    maps: Vec<MapVal>,
    /// Container images (string configs).
    images: Vec<Val>,
    /// `ns.metadata.name`.
    namespaces: Vec<Val>,
    /// `cm.metadata.name` of config maps that have the key `LOG_LEVEL`.
    config_maps: Vec<Val>,
    /// `secret.metadata.name` of secrets that have the key `password`.
    secrets: Vec<Val>,
    /// `password.result`.
    passwords: Vec<Val>,
    service_accounts: Vec<Val>,
    roles: Vec<Val>,
    deployments: Vec<DeployVal>,
    /// Bare resource names, for `dependsOn`.
    resources: Vec<Val>,
}

#[derive(Clone, Copy)]
enum Pool {
    Strings,
    PlainStrings,
    Names,
    NameOutputs,
    Endpoints,
    Levels,
    Ints,
    PlainInts,
    Bools,
    Lists,
    EventualLists,
    Images,
    Namespaces,
    ConfigMaps,
    Secrets,
    Passwords,
    ServiceAccounts,
    Roles,
    Resources,
}

impl Pools {
    fn get(&self, pool: Pool) -> &Vec<Val> {
        match pool {
            Pool::Strings => &self.strings,
            Pool::PlainStrings => &self.plain_strings,
            Pool::Names => &self.names,
            Pool::NameOutputs => &self.name_outputs,
            Pool::Endpoints => &self.endpoints,
            Pool::Levels => &self.levels,
            Pool::Ints => &self.ints,
            Pool::PlainInts => &self.plain_ints,
            Pool::Bools => &self.bools,
            Pool::Lists => &self.lists,
            Pool::EventualLists => &self.eventual_lists,
            Pool::Images => &self.images,
            Pool::Namespaces => &self.namespaces,
            Pool::ConfigMaps => &self.config_maps,
            Pool::Secrets => &self.secrets,
            Pool::Passwords => &self.passwords,
            Pool::ServiceAccounts => &self.service_accounts,
            Pool::Roles => &self.roles,
            Pool::Resources => &self.resources,
        }
    }

    fn get_mut(&mut self, pool: Pool) -> &mut Vec<Val> {
        match pool {
            Pool::Strings => &mut self.strings,
            Pool::PlainStrings => &mut self.plain_strings,
            Pool::Names => &mut self.names,
            Pool::NameOutputs => &mut self.name_outputs,
            Pool::Endpoints => &mut self.endpoints,
            Pool::Levels => &mut self.levels,
            Pool::Ints => &mut self.ints,
            Pool::PlainInts => &mut self.plain_ints,
            Pool::Bools => &mut self.bools,
            Pool::Lists => &mut self.lists,
            Pool::EventualLists => &mut self.eventual_lists,
            Pool::Images => &mut self.images,
            Pool::Namespaces => &mut self.namespaces,
            Pool::ConfigMaps => &mut self.config_maps,
            Pool::Secrets => &mut self.secrets,
            Pool::Passwords => &mut self.passwords,
            Pool::ServiceAccounts => &mut self.service_accounts,
            Pool::Roles => &mut self.roles,
            Pool::Resources => &mut self.resources,
        }
    }
}

/// An index into `pool`: with probability [`CROSS_FILE_PERCENT`] any entry of an earlier file,
/// otherwise one of the last [`RECENT_WINDOW`] entries. Pools are in creation order, so the
/// entries of earlier files are a prefix.
fn pick_index<T: InFile>(rng: &mut SplitMix64, pool: &[T], file: u32) -> Option<usize> {
    if pool.is_empty() {
        return None;
    }
    let earlier = pool.partition_point(|v| v.file() < file);
    if earlier > 0 && rng.chance(CROSS_FILE_PERCENT) {
        return Some(rng.below(earlier));
    }
    let window = pool.len().min(RECENT_WINDOW);
    Some(pool.len() - 1 - rng.below(window))
}

/// The curated resource shapes. Each is written only with input properties that exist in the
/// schema (kubernetes 3.7.2, random 4.11.2), sets every required input, and exports only
/// output properties of the schema (plus the implicit `id`).
#[derive(Clone, Copy, PartialEq, Eq, Debug)]
pub enum Shape {
    RandomPet,
    RandomString,
    RandomPassword,
    RandomInteger,
    RandomId,
    RandomUuid,
    RandomShuffle,
    Namespace,
    ConfigMap,
    Secret,
    ServiceAccount,
    Deployment,
    Service,
    Role,
    RoleBinding,
    HorizontalPodAutoscaler,
    PodDisruptionBudget,
}

pub const SHAPES: [Shape; 17] = [
    Shape::RandomPet,
    Shape::RandomString,
    Shape::RandomPassword,
    Shape::RandomInteger,
    Shape::RandomId,
    Shape::RandomUuid,
    Shape::RandomShuffle,
    Shape::Namespace,
    Shape::ConfigMap,
    Shape::Secret,
    Shape::ServiceAccount,
    Shape::Deployment,
    Shape::Service,
    Shape::Role,
    Shape::RoleBinding,
    Shape::HorizontalPodAutoscaler,
    Shape::PodDisruptionBudget,
];

impl Shape {
    pub fn token(self) -> &'static str {
        match self {
            Shape::RandomPet => "random:index/randomPet:RandomPet",
            Shape::RandomString => "random:index/randomString:RandomString",
            Shape::RandomPassword => "random:index/randomPassword:RandomPassword",
            Shape::RandomInteger => "random:index/randomInteger:RandomInteger",
            Shape::RandomId => "random:index/randomId:RandomId",
            Shape::RandomUuid => "random:index/randomUuid:RandomUuid",
            Shape::RandomShuffle => "random:index/randomShuffle:RandomShuffle",
            Shape::Namespace => "kubernetes:core/v1:Namespace",
            Shape::ConfigMap => "kubernetes:core/v1:ConfigMap",
            Shape::Secret => "kubernetes:core/v1:Secret",
            Shape::ServiceAccount => "kubernetes:core/v1:ServiceAccount",
            Shape::Deployment => "kubernetes:apps/v1:Deployment",
            Shape::Service => "kubernetes:core/v1:Service",
            Shape::Role => "kubernetes:rbac.authorization.k8s.io/v1:Role",
            Shape::RoleBinding => "kubernetes:rbac.authorization.k8s.io/v1:RoleBinding",
            Shape::HorizontalPodAutoscaler => "kubernetes:autoscaling/v1:HorizontalPodAutoscaler",
            Shape::PodDisruptionBudget => "kubernetes:policy/v1:PodDisruptionBudget",
        }
    }

    /// The output properties a program reads from this resource (traversal paths).
    pub fn outputs_read(self) -> &'static [&'static str] {
        match self {
            Shape::RandomPet => &["id"],
            Shape::RandomString | Shape::RandomUuid => &["result"],
            Shape::RandomPassword => &["result"],
            Shape::RandomInteger => &["result"],
            Shape::RandomId => &["hex"],
            Shape::RandomShuffle => &["results"],
            Shape::Deployment => &[
                "metadata.name",
                "spec.replicas",
                "spec.template.metadata.labels",
            ],
            Shape::Service => &["metadata.name", "spec.clusterIP"],
            _ => &["metadata.name"],
        }
    }

    /// The kind part of node names.
    fn kind(self) -> &'static str {
        match self {
            Shape::RandomPet => "Pet",
            Shape::RandomString => "Suffix",
            Shape::RandomPassword => "Password",
            Shape::RandomInteger => "Port",
            Shape::RandomId => "Id",
            Shape::RandomUuid => "Uuid",
            Shape::RandomShuffle => "Shuffle",
            Shape::Namespace => "Ns",
            Shape::ConfigMap => "Config",
            Shape::Secret => "Secret",
            Shape::ServiceAccount => "Sa",
            Shape::Deployment => "Deployment",
            Shape::Service => "Service",
            Shape::Role => "Role",
            Shape::RoleBinding => "Binding",
            Shape::HorizontalPodAutoscaler => "Hpa",
            Shape::PodDisruptionBudget => "Pdb",
        }
    }

    /// Relative frequency, out of 100.
    fn weight(self) -> usize {
        match self {
            Shape::RandomPet => 8,
            Shape::RandomString => 8,
            Shape::RandomPassword => 4,
            Shape::RandomInteger => 4,
            Shape::RandomId => 4,
            Shape::RandomUuid => 3,
            Shape::RandomShuffle => 3,
            Shape::Namespace => 6,
            Shape::ConfigMap => 10,
            Shape::Secret => 6,
            Shape::ServiceAccount => 7,
            Shape::Deployment => 12,
            Shape::Service => 10,
            Shape::Role => 4,
            Shape::RoleBinding => 4,
            Shape::HorizontalPodAutoscaler => 4,
            Shape::PodDisruptionBudget => 3,
        }
    }

    fn rangeable(self) -> bool {
        matches!(
            self,
            Shape::RandomPet
                | Shape::RandomString
                | Shape::RandomId
                | Shape::Namespace
                | Shape::ConfigMap
                | Shape::Secret
                | Shape::ServiceAccount
        )
    }
}

/// The `range` option of a resource being generated.
enum Range {
    None,
    /// `range = <int>`: `range.value` is the index.
    Count(String),
    /// `range = <list(string)>`: `range.value` is an element.
    List(String),
    /// `range = <map(string)>` with a known key: `range.key` and `range.value` are strings.
    Map {
        expr: V,
        key: String,
    },
    /// `range = <bool>`: the resource may not exist; `range` is not defined in the body.
    Cond(String),
}

/// What a resource adds to the pools, as a path after the resource reference.
enum Export {
    /// Any string.
    Str(&'static str),
    /// A string that fits in an object name.
    Name(&'static str),
    /// A host name or service name.
    Endpoint(&'static str),
    Int(&'static str),
    EventualList(&'static str),
    Namespace,
    ConfigMap,
    Secret,
    Password,
    ServiceAccount,
    Role,
    Deployment {
        app: String,
    },
}

#[derive(Clone, Copy)]
enum Plan {
    Resource,
    Local,
    Config,
    Output,
    Component,
}

struct Gen {
    rng: SplitMix64,
    file: u32,
    counter: u32,
    symbols: Vec<Symbol>,
    /// The nodes the node being built refers to.
    deps: Vec<u32>,
    pools: Pools,
    out: String,
    stats: Stats,
}

/// Resource blocks in file `f` of `files`, spreading `total` evenly.
fn resources_in_file(total: usize, files: usize, f: usize) -> usize {
    total / files + usize::from(f < total % files)
}

/// How many component instances the program has.
fn component_instances(resources: usize) -> usize {
    if resources >= 20 {
        3
    } else {
        1
    }
}

pub(crate) fn generate(options: &Options) -> Program {
    let files = options.file_count();
    let components = component_instances(options.resources);
    let mut gen = Gen {
        rng: SplitMix64::new(options.seed),
        file: 0,
        counter: 0,
        symbols: Vec::new(),
        deps: Vec::new(),
        pools: Pools::default(),
        out: String::new(),
        stats: Stats::default(),
    };
    let mut generated = Vec::with_capacity(files);
    for f in 0..files {
        gen.file = f as u32;
        let resources = resources_in_file(options.resources, files, f);
        gen.out = String::with_capacity(resources * 900 + 1024);
        gen.out.push_str(&format!(
            "# Generated by pcl-progen (seed {}, {} resources): file {} of {}.\n\n",
            options.seed,
            options.resources,
            f + 1,
            files
        ));
        if f == 0 {
            gen.prelude();
        }
        // About 70% of the nodes are resources; of the rest, a few configs at the top, locals
        // mixed in with the resources, and outputs (and component instances) at the bottom.
        let others = ((resources * 3).div_ceil(7)).max(1);
        let configs = others / 12;
        let outputs = others / 4;
        let locals = others - configs - outputs;
        let mut middle: Vec<Plan> = std::iter::repeat_n(Plan::Resource, resources)
            .chain(std::iter::repeat_n(Plan::Local, locals))
            .collect();
        gen.rng.shuffle(&mut middle);
        let mut plan: Vec<Plan> = std::iter::repeat_n(Plan::Config, configs).collect();
        plan.extend(middle);
        for i in 0..components {
            if i * files / components == f {
                plan.push(Plan::Component);
            }
        }
        plan.extend(std::iter::repeat_n(Plan::Output, outputs));
        for step in plan {
            match step {
                Plan::Resource => gen.resource(),
                Plan::Local => gen.local(),
                Plan::Config => gen.config(),
                Plan::Output => gen.output(),
                Plan::Component => gen.component(),
            }
        }
        let width = files.to_string().len().max(4);
        generated.push(GeneratedFile {
            path: format!("part_{f:0width$}.pp"),
            text: std::mem::take(&mut gen.out),
        });
    }
    let component_files = component::files();
    gen.stats.bytes = generated
        .iter()
        .chain(&component_files)
        .map(|f| f.text.len())
        .sum();
    Program {
        files: generated,
        component_files,
        symbols: gen.symbols,
        stats: gen.stats,
    }
}

impl Gen {
    // ----- names, nodes and pools -----

    fn word(&mut self) -> &'static str {
        WORDS[self.rng.below(WORDS.len())]
    }

    /// A fresh node name: `{word}{kind}{counter}`. Words are lowercase, kinds capitalized and
    /// the counter global, so names never repeat (and never equal a prelude name, which has
    /// no digits).
    fn fresh(&mut self, word: &str, kind: &str) -> (String, u32) {
        self.counter += 1;
        (format!("{word}{kind}{}", self.counter), self.counter)
    }

    fn begin(&mut self) {
        self.deps.clear();
    }

    /// Records the node being built and appends its text to the current file.
    fn finish(&mut self, name: String, kind: NodeKind, text: &str) -> u32 {
        let id = self.symbols.len() as u32;
        let mut deps: Vec<usize> = self.deps.drain(..).map(|d| d as usize).collect();
        deps.sort_unstable();
        deps.dedup();
        self.symbols.push(Symbol {
            name,
            kind,
            file: self.file as usize,
            deps,
        });
        self.out.push_str(text);
        self.out.push('\n');
        id
    }

    fn val(&self, text: String, sym: u32) -> Val {
        Val {
            text,
            sym,
            file: self.file,
        }
    }

    fn export(&mut self, pool: Pool, text: String, sym: u32) {
        let val = self.val(text, sym);
        self.pools.get_mut(pool).push(val);
    }

    /// Exports a plain string: usable both where a plain and where any string is wanted.
    fn export_plain_string(&mut self, text: String, sym: u32) {
        self.export(Pool::Strings, text.clone(), sym);
        self.export(Pool::PlainStrings, text, sym);
    }

    /// Exports a plain string that fits in an object name.
    fn export_name(&mut self, text: String, sym: u32) {
        self.export(Pool::Names, text.clone(), sym);
        self.export_plain_string(text, sym);
    }

    fn export_plain_int(&mut self, text: String, sym: u32) {
        self.export(Pool::Ints, text.clone(), sym);
        self.export(Pool::PlainInts, text, sym);
    }

    /// An expression from `pool`, recorded as a dependency of the node being built.
    fn take(&mut self, pool: Pool) -> Option<String> {
        let entries = self.pools.get(pool);
        let i = pick_index(&mut self.rng, entries, self.file)?;
        let val = &entries[i];
        self.deps.push(val.sym);
        Some(val.text.clone())
    }

    fn take_map(&mut self) -> (String, Vec<String>) {
        let i = pick_index(&mut self.rng, &self.pools.maps, self.file).expect("prelude map");
        let map = &self.pools.maps[i];
        self.deps.push(map.val.sym);
        (map.val.text.clone(), map.keys.clone())
    }

    fn take_deployment(&mut self) -> Option<(String, String, String)> {
        let i = pick_index(&mut self.rng, &self.pools.deployments, self.file)?;
        let d = &self.pools.deployments[i];
        self.deps.push(d.name.sym);
        Some((d.name.text.clone(), d.labels.clone(), d.app.clone()))
    }

    fn string(&mut self) -> String {
        self.take(Pool::Strings).expect("prelude string")
    }

    fn plain_string(&mut self) -> String {
        self.take(Pool::PlainStrings).expect("prelude string")
    }

    /// A plain string that fits in an object name.
    fn name_part(&mut self) -> String {
        self.take(Pool::Names).expect("prelude name")
    }

    /// A string that fits in an object name, plain or output.
    fn any_name_part(&mut self) -> String {
        if self.rng.chance(50) {
            if let Some(name) = self.take(Pool::NameOutputs) {
                return name;
            }
        }
        self.name_part()
    }

    /// A host or service name, or any string before there are any.
    fn endpoint(&mut self) -> String {
        self.take(Pool::Endpoints).unwrap_or_else(|| self.string())
    }

    fn plain_int(&mut self) -> String {
        self.take(Pool::PlainInts).expect("prelude int")
    }

    fn int(&mut self) -> String {
        self.take(Pool::Ints).expect("prelude int")
    }

    fn bool_value(&mut self) -> String {
        self.take(Pool::Bools).expect("prelude bool")
    }

    fn list(&mut self) -> String {
        self.take(Pool::Lists).expect("prelude list")
    }

    fn image(&mut self) -> String {
        self.take(Pool::Images).expect("prelude image")
    }

    fn namespace(&mut self) -> String {
        self.take(Pool::Namespaces)
            .unwrap_or_else(|| lit("default"))
    }

    // ----- configs -----

    fn emit_config(
        &mut self,
        name: &str,
        ty: &str,
        default: Option<V>,
        description: &str,
        secret: bool,
    ) -> u32 {
        self.begin();
        let mut text = format!("config {name} {} {{\n", lit(ty));
        let mut attrs = Vec::new();
        if let Some(default) = default {
            attrs.push(("default".to_string(), default));
        }
        attrs.push(("description".to_string(), V::str(description)));
        if secret {
            attrs.push(("secret".to_string(), V::bool(true)));
        }
        write_attrs(&mut text, &attrs, 1);
        text.push_str("}\n");
        self.stats.configs += 1;
        self.finish(name.to_string(), NodeKind::Config, &text)
    }

    /// The configs of the first file, so every pool has something from the start.
    fn prelude(&mut self) {
        let id = self.emit_config(
            "environment",
            "string",
            Some(V::str("dev")),
            "Deployment environment: dev, staging or prod",
            false,
        );
        self.export_name("environment".into(), id);
        let id = self.emit_config(
            "replicaCount",
            "int",
            Some(V::int(2)),
            "Default number of replicas of each deployment",
            false,
        );
        self.export_plain_int("replicaCount".into(), id);
        let id = self.emit_config(
            "appImage",
            "string",
            Some(V::str("nginx:1.25")),
            "Default container image",
            false,
        );
        self.export_plain_string("appImage".into(), id);
        self.export(Pool::Images, "appImage".into(), id);
        let id = self.emit_config(
            "regions",
            "list(string)",
            Some(V::strs(&["us-east-1", "us-west-2", "eu-west-1"])),
            "Regions the services are replicated to",
            false,
        );
        self.export(Pool::Lists, "regions".into(), id);
        let id = self.emit_config(
            "commonTags",
            "map(string)",
            Some(obj([
                ("team", V::str("platform")),
                ("costCenter", V::str("cc-1024")),
                ("managedBy", V::str("pulumi")),
            ])),
            "Labels added to every namespace",
            false,
        );
        let val = self.val("commonTags".into(), id);
        self.pools.maps.push(MapVal {
            val,
            keys: vec!["team".into(), "costCenter".into(), "managedBy".into()],
        });
        let id = self.emit_config(
            "enableDebug",
            "bool",
            Some(V::bool(false)),
            "Verbose logging everywhere",
            false,
        );
        self.export(Pool::Bools, "enableDebug".into(), id);
    }

    fn config(&mut self) {
        let word = self.word();
        match self.rng.weighted(&[3, 3, 2, 2, 1, 1, 1]) {
            0 => {
                let (name, _) = self.fresh(word, "Replicas");
                let default = self.rng.between(1, 5);
                let id = self.emit_config(
                    &name,
                    "int",
                    Some(V::int(default)),
                    &format!("Replicas of {word}"),
                    false,
                );
                self.export_plain_int(name, id);
            }
            1 => {
                let (name, n) = self.fresh(word, "Image");
                let image = format!("registry.example.com/{word}:1.{}.{}", n % 17, n % 5);
                let id = self.emit_config(
                    &name,
                    "string",
                    Some(V::str(&image)),
                    &format!("Container image of {word}"),
                    false,
                );
                self.export_plain_string(name.clone(), id);
                self.export(Pool::Images, name, id);
            }
            2 => {
                let (name, _) = self.fresh(word, "Hosts");
                let hosts = [
                    format!("{word}.example.com"),
                    format!("{word}.internal.example.com"),
                ];
                let id = self.emit_config(
                    &name,
                    "list(string)",
                    Some(V::List(hosts.iter().map(|h| V::str(h)).collect())),
                    &format!("Host names of {word}"),
                    false,
                );
                self.export(Pool::Lists, name, id);
            }
            3 => {
                let (name, _) = self.fresh(word, "Settings");
                let id = self.emit_config(
                    &name,
                    "map(string)",
                    Some(obj([
                        ("tier", V::str("backend")),
                        ("owner", V::str(&format!("team-{word}"))),
                    ])),
                    &format!("Settings of {word}"),
                    false,
                );
                let val = self.val(name, id);
                self.pools.maps.push(MapVal {
                    val,
                    keys: vec!["tier".into(), "owner".into()],
                });
            }
            4 => {
                let (name, _) = self.fresh(word, "Enabled");
                let default = self.rng.chance(50);
                let id = self.emit_config(
                    &name,
                    "bool",
                    Some(V::bool(default)),
                    &format!("Whether {word} is enabled"),
                    false,
                );
                self.export(Pool::Bools, name, id);
            }
            5 => {
                // A required config: no default.
                let (name, _) = self.fresh(word, "Owner");
                let id = self.emit_config(
                    &name,
                    "string",
                    None,
                    &format!("Owner of {word} (required)"),
                    false,
                );
                self.export_name(name, id);
            }
            _ => {
                // A secret config is an output, so it is not plain.
                let (name, n) = self.fresh(word, "ApiKey");
                let id = self.emit_config(
                    &name,
                    "string",
                    Some(V::str(&format!("key-{n:08x}"))),
                    &format!("API key of {word}"),
                    true,
                );
                self.export(Pool::Strings, name, id);
            }
        }
    }

    // ----- locals -----

    fn local(&mut self) {
        let word = self.word();
        self.begin();
        self.stats.locals += 1;
        let weights = [4, 2, 3, 3, 3, 2, 3, 2, 2, 2, 2, 2, 2, 1, 1, 2, 1, 2];
        match self.rng.weighted(&weights) {
            0 => {
                // A name template, from plain values only or from any.
                let (name, _) = self.fresh(word, "Name");
                let a = self.name_part();
                let output = if self.rng.chance(50) {
                    self.take(Pool::NameOutputs)
                } else {
                    None
                };
                let plain = output.is_none();
                let b = output.unwrap_or_else(|| self.name_part());
                let expr = format!("\"{word}-${{{a}}}-${{{b}}}\"");
                let id = self.finish_local(&name, &expr);
                if plain {
                    self.export_name(name, id);
                } else {
                    self.export(Pool::NameOutputs, name.clone(), id);
                    self.export(Pool::Strings, name, id);
                }
            }
            1 => {
                let (name, _) = self.fresh(word, "Host");
                let a = self.any_name_part();
                let expr = format!("\"${{{a}}}.{word}.svc.cluster.local\"");
                let id = self.finish_local(&name, &expr);
                self.export(Pool::Endpoints, name.clone(), id);
                self.export(Pool::Strings, name, id);
            }
            2 => {
                let (name, _) = self.fresh(word, "Zones");
                let items: &[&str] = match self.rng.below(3) {
                    0 => &["us-east-1a", "us-east-1b", "us-east-1c"],
                    1 => &["primary", "secondary"],
                    _ => &["blue", "green", "canary", "stable"],
                };
                let expr = V::strs(items);
                let id = self.finish_local_value(&name, &expr);
                self.export(Pool::Lists, name, id);
            }
            3 => {
                let (name, _) = self.fresh(word, "Labels");
                let env = self.name_part();
                let expr = obj([
                    ("app", V::str(word)),
                    ("team", V::str(&format!("team-{word}"))),
                    ("environment", V::raw(env)),
                ]);
                let id = self.finish_local_value(&name, &expr);
                let val = self.val(name, id);
                self.pools.maps.push(MapVal {
                    val,
                    keys: vec!["app".into(), "team".into(), "environment".into()],
                });
            }
            4 => {
                let (name, _) = self.fresh(word, "Endpoints");
                let list = self.list();
                let var = *self.rng.pick(&["h", "item", "zone", "entry"]);
                let filter = if self.rng.chance(30) {
                    format!(" if {var} != \"\"")
                } else {
                    String::new()
                };
                let expr = format!("[for {var} in {list} : \"${{{var}}}-{word}\"{filter}]");
                let id = self.finish_local(&name, &expr);
                self.export(Pool::Lists, name, id);
            }
            5 => {
                let (name, _) = self.fresh(word, "Annotations");
                let (map, keys) = self.take_map();
                let expr = format!("{{ for k, v in {map} : k => \"${{v}}-{word}\" }}");
                let id = self.finish_local(&name, &expr);
                let val = self.val(name, id);
                self.pools.maps.push(MapVal { val, keys });
            }
            6 => {
                let (name, _) = self.fresh(word, "Count");
                let list = self.list();
                let id = self.finish_local(&name, &format!("length({list})"));
                self.export_plain_int(name, id);
            }
            7 => {
                let (name, _) = self.fresh(word, "Joined");
                let list = self.list();
                let id = self.finish_local(&name, &format!("join(\",\", {list})"));
                self.export_plain_string(name, id);
            }
            8 => {
                let (name, _) = self.fresh(word, "Tier");
                let (map, keys) = self.take_map();
                let key = if keys.is_empty() {
                    "name".to_string()
                } else {
                    self.rng.pick(&keys).clone()
                };
                let expr = format!("lookup({map}, {}, {})", lit(&key), lit(word));
                let id = self.finish_local(&name, &expr);
                self.export_name(name, id);
            }
            9 => {
                let (name, _) = self.fresh(word, "Primary");
                let list = self.list();
                let id = self.finish_local(&name, &format!("element({list}, 0)"));
                self.export_name(name, id);
            }
            10 => {
                let (name, _) = self.fresh(word, "Document");
                let s = self.endpoint();
                let i = self.int();
                let (map, _) = self.take_map();
                let list = self.list();
                let expr = obj([
                    ("service", V::str(word)),
                    ("endpoint", V::raw(s)),
                    ("replicas", V::raw(i)),
                    ("labels", V::raw(map)),
                    ("hosts", V::raw(list)),
                ]);
                let id = self.finish_local_value(&name, &V::Call("toJSON", vec![expr]));
                self.export(Pool::Strings, name, id);
            }
            11 => {
                let (name, _) = self.fresh(word, "LogLevel");
                let flag = self.bool_value();
                let expr = format!("{flag} ? \"debug\" : \"info\"");
                let id = self.finish_local(&name, &expr);
                self.export(Pool::Levels, name.clone(), id);
                self.export_plain_string(name, id);
            }
            12 => {
                let (name, _) = self.fresh(word, "MinReplicas");
                let i = self.plain_int();
                let floor = self.rng.between(1, 3);
                let id = self.finish_local(&name, &format!("max({i}, {floor})"));
                self.export_plain_int(name, id);
            }
            13 => {
                let (name, _) = self.fresh(word, "Parts");
                let s = self.name_part();
                let id = self.finish_local(&name, &format!("split(\"-\", {s})"));
                self.export(Pool::Lists, name, id);
            }
            14 => {
                let (name, _) = self.fresh(word, "Checksum");
                let s = self.plain_string();
                let f = *self.rng.pick(&["sha1", "toBase64"]);
                let id = self.finish_local(&name, &format!("{f}({s})"));
                self.export_plain_string(name, id);
            }
            15 => {
                // An object, read field by field.
                let (name, _) = self.fresh(word, "Settings");
                let host = self.name_part();
                let (map, keys) = self.take_map();
                let port = 8000 + self.rng.between(0, 999);
                let expr = obj([
                    ("host", V::raw(format!("\"${{{host}}}.{word}.internal\""))),
                    ("port", V::int(port)),
                    ("labels", V::raw(map)),
                ]);
                let id = self.finish_local_value(&name, &expr);
                self.export(Pool::Endpoints, format!("{name}.host"), id);
                self.export_plain_string(format!("{name}.host"), id);
                self.export(Pool::Ints, format!("{name}.port"), id);
                let val = self.val(format!("{name}.labels"), id);
                self.pools.maps.push(MapVal { val, keys });
            }
            16 => {
                let (name, _) = self.fresh(word, "Token");
                let s = self.name_part();
                let id = self.finish_local(&name, &format!("secret(\"{word}-${{{s}}}\")"));
                self.export(Pool::Strings, name, id);
            }
            _ => {
                let (name, _) = self.fresh(word, "Shards");
                let count = self.rng.between(2, 6);
                let expr = format!("[for i in range({count}) : \"{word}-shard-${{i}}\"]");
                let id = self.finish_local(&name, &expr);
                self.export(Pool::Lists, name, id);
            }
        }
    }

    fn finish_local(&mut self, name: &str, expr: &str) -> u32 {
        let text = format!("{name} = {expr}\n");
        self.finish(name.to_string(), NodeKind::Local, &text)
    }

    fn finish_local_value(&mut self, name: &str, value: &V) -> u32 {
        let mut text = format!("{name} = ");
        write_value(&mut text, value, 0);
        text.push('\n');
        self.finish(name.to_string(), NodeKind::Local, &text)
    }

    // ----- outputs -----

    fn output(&mut self) {
        let word = self.word();
        self.begin();
        self.stats.outputs += 1;
        let (name, typed, value) = match self.rng.weighted(&[4, 2, 1, 1, 2, 2, 1]) {
            0 => {
                let (name, _) = self.fresh(word, "Endpoint");
                (name, None, V::raw(self.endpoint()))
            }
            1 => {
                let (name, _) = self.fresh(word, "Summary");
                let s = self.string();
                let ns = self.namespace();
                let i = self.int();
                let value = obj([
                    ("name", V::raw(s)),
                    ("namespace", V::raw(ns)),
                    ("replicas", V::raw(i)),
                ]);
                (name, None, value)
            }
            2 => {
                let (name, _) = self.fresh(word, "Count");
                let list = if self.rng.chance(50) {
                    self.take(Pool::EventualLists)
                } else {
                    None
                };
                let list = list.unwrap_or_else(|| self.list());
                (name, None, V::raw(format!("length({list})")))
            }
            3 => {
                let (name, _) = self.fresh(word, "Hosts");
                let list = self.list();
                (name, None, V::raw(format!("join(\", \", {list})")))
            }
            4 => {
                let (name, _) = self.fresh(word, "Names");
                let value = self
                    .take(Pool::EventualLists)
                    .unwrap_or_else(|| self.list());
                (name, None, V::raw(value))
            }
            5 => {
                let (name, _) = self.fresh(word, "Label");
                (name, Some("string"), V::raw(self.plain_string()))
            }
            _ => {
                let (name, _) = self.fresh(word, "Pair");
                let a = self.string();
                let b = self.string();
                (name, None, V::List(vec![V::raw(a), V::raw(b)]))
            }
        };
        let mut text = match typed {
            Some(ty) => format!("output {name} {} {{\n", lit(ty)),
            None => format!("output {name} {{\n"),
        };
        write_attrs(&mut text, &[("value".to_string(), value)], 1);
        text.push_str("}\n");
        self.finish(name, NodeKind::Output, &text);
    }

    // ----- components -----

    fn component(&mut self) {
        let word = self.word();
        let (name, n) = self.fresh(word, "App");
        self.begin();
        self.stats.components += 1;
        let app = format!("{word}-app-{n}");
        let ns = self.namespace();
        let image = self.image();
        let replicas = self.plain_int();
        let (labels, _) = self.take_map();
        let mut attrs = vec![
            ("appName".to_string(), V::str(&app)),
            ("namespaceName".to_string(), V::raw(ns)),
            ("image".to_string(), V::raw(image)),
            ("replicas".to_string(), V::raw(replicas)),
            ("extraLabels".to_string(), V::raw(labels)),
        ];
        if self.rng.chance(50) {
            attrs.push(("port".to_string(), V::int(8080)));
        }
        let mut options = Vec::new();
        if let Some(dep) = self.take(Pool::Resources) {
            options.push(("dependsOn".to_string(), V::List(vec![V::raw(dep)])));
        }
        let text = block(
            &format!("component {name} {}", lit(component::SOURCE)),
            &attrs,
            &options,
        );
        let id = self.finish(name.clone(), NodeKind::Component, &text);
        for output in ["serviceName", "url"] {
            self.export(Pool::Endpoints, format!("{name}.{output}"), id);
            self.export(Pool::Strings, format!("{name}.{output}"), id);
        }
        self.export(
            Pool::ServiceAccounts,
            format!("{name}.serviceAccountName"),
            id,
        );
    }

    // ----- resources -----

    fn resource(&mut self) {
        let index = self.rng.weighted(&SHAPES.map(Shape::weight));
        let shape = SHAPES[index];
        let word = self.word();
        let (name, n) = self.fresh(word, shape.kind());
        self.begin();
        let range = if shape.rangeable() && self.rng.chance(RANGED_PERCENT) {
            self.range(word)
        } else {
            Range::None
        };
        let base = format!("{word}-{}-{n}", shape.kind().to_ascii_lowercase());
        let (attrs, exports) = self.resource_body(shape, word, &base, &range);

        let mut options = Vec::new();
        match &range {
            Range::None => {}
            Range::Count(e) | Range::List(e) | Range::Cond(e) => {
                options.push(("range".to_string(), V::raw(e.clone())))
            }
            Range::Map { expr, .. } => {
                let mut text = String::new();
                write_value(&mut text, expr, 2);
                options.push(("range".to_string(), V::raw(text)))
            }
        }
        if self.rng.chance(DEPENDS_ON_PERCENT) {
            let mut deps = Vec::new();
            for _ in 0..self.rng.between(1, 2) {
                if let Some(dep) = self.take(Pool::Resources) {
                    if !deps.contains(&dep) {
                        deps.push(dep);
                    }
                }
            }
            if !deps.is_empty() {
                options.push((
                    "dependsOn".to_string(),
                    V::List(deps.into_iter().map(V::Raw).collect()),
                ));
            }
        }
        if matches!(shape, Shape::Namespace | Shape::Secret) && self.rng.chance(5) {
            options.push(("protect".to_string(), V::bool(true)));
        }

        let text = block(
            &format!("resource {name} {}", lit(shape.token())),
            &attrs,
            &options,
        );
        let id = self.finish(name.clone(), NodeKind::Resource, &text);
        self.stats.resources += 1;
        *self.stats.by_token.entry(shape.token()).or_insert(0) += 1;

        let reference = match &range {
            Range::None => Some(name.clone()),
            Range::Count(_) | Range::List(_) => Some(format!("{name}[0]")),
            Range::Map { key, .. } => Some(format!("{name}[{}]", lit(key))),
            Range::Cond(_) => None,
        };
        if !matches!(range, Range::None) {
            self.stats.ranged_resources += 1;
        }
        if let Some(r) = reference {
            let mut splat = matches!(range, Range::Count(_) | Range::List(_));
            for export in exports {
                match export {
                    Export::Str(path) | Export::Name(path) | Export::Endpoint(path) => {
                        let text = format!("{r}{path}");
                        match export {
                            Export::Name(_) => self.export(Pool::NameOutputs, text.clone(), id),
                            Export::Endpoint(_) => self.export(Pool::Endpoints, text.clone(), id),
                            _ => {}
                        }
                        self.export(Pool::Strings, text, id);
                        if splat {
                            self.export(Pool::EventualLists, format!("{name}[*]{path}"), id);
                            splat = false;
                        }
                    }
                    Export::Int(path) => self.export(Pool::Ints, format!("{r}{path}"), id),
                    Export::EventualList(path) => {
                        self.export(Pool::EventualLists, format!("{r}{path}"), id)
                    }
                    Export::Namespace => {
                        let text = format!("{r}.metadata.name");
                        self.export(Pool::Namespaces, text.clone(), id);
                        self.export(Pool::NameOutputs, text.clone(), id);
                        self.export(Pool::Strings, text, id);
                    }
                    Export::ConfigMap => {
                        self.export(Pool::ConfigMaps, format!("{r}.metadata.name"), id)
                    }
                    Export::Secret => self.export(Pool::Secrets, format!("{r}.metadata.name"), id),
                    Export::Password => self.export(Pool::Passwords, format!("{r}.result"), id),
                    Export::ServiceAccount => {
                        self.export(Pool::ServiceAccounts, format!("{r}.metadata.name"), id)
                    }
                    Export::Role => self.export(Pool::Roles, format!("{r}.metadata.name"), id),
                    Export::Deployment { app } => {
                        let name = self.val(format!("{r}.metadata.name"), id);
                        self.export(Pool::NameOutputs, name.text.clone(), id);
                        self.export(Pool::Strings, name.text.clone(), id);
                        self.pools.deployments.push(DeployVal {
                            name,
                            labels: format!("{r}.spec.template.metadata.labels"),
                            app,
                        });
                    }
                }
            }
        }
        self.export(Pool::Resources, name, id);
    }

    fn range(&mut self, word: &str) -> Range {
        match self.rng.weighted(&[35, 10, 30, 20, 5]) {
            0 => Range::Count(self.rng.between(2, 4).to_string()),
            1 => Range::Count(self.plain_int()),
            2 => Range::List(self.list()),
            3 => {
                if self.rng.chance(50) {
                    let (map, keys) = self.take_map();
                    if let Some(key) = keys.first() {
                        return Range::Map {
                            expr: V::raw(map),
                            key: key.clone(),
                        };
                    }
                }
                Range::Map {
                    expr: obj([
                        ("primary", V::str(&format!("{word}-primary"))),
                        ("replica", V::str(&format!("{word}-replica"))),
                    ]),
                    key: "primary".to_string(),
                }
            }
            _ => Range::Cond(self.bool_value()),
        }
    }

    /// The name of a Kubernetes object (or a prefix), as an expression: with the range key or
    /// value when ranged, else a literal or a template over other values.
    fn object_name(&mut self, base: &str, range: &Range) -> String {
        match range {
            Range::Count(_) | Range::List(_) => format!("\"{base}-${{range.value}}\""),
            Range::Map { .. } => format!("\"{base}-${{range.key}}\""),
            Range::None | Range::Cond(_) => match self.rng.below(10) {
                0..=5 => lit(base),
                6..=8 => format!("\"${{{}}}-{base}\"", self.name_part()),
                _ => format!("\"{base}-${{{}}}\"", self.any_name_part()),
            },
        }
    }

    fn labels(&mut self, app: &str) -> V {
        if self.rng.chance(40) {
            V::raw(self.take_map().0)
        } else {
            let env = self.name_part();
            obj([("app", V::str(app)), ("environment", V::raw(env))])
        }
    }

    fn metadata(&mut self, name: String, namespaced: bool, labels: Option<V>) -> V {
        let mut items = vec![("name".to_string(), V::raw(name))];
        if namespaced {
            items.push(("namespace".to_string(), V::raw(self.namespace())));
        }
        if let Some(labels) = labels {
            items.push(("labels".to_string(), labels));
        }
        V::Obj(items)
    }

    fn keepers(&mut self, range: &Range) -> V {
        let slot = match range {
            Range::Count(_) | Range::List(_) => V::raw("\"slot-${range.value}\""),
            Range::Map { .. } => V::raw("\"slot-${range.key}\""),
            Range::None | Range::Cond(_) => V::raw(self.name_part()),
        };
        obj([("slot", slot)])
    }

    fn resource_body(
        &mut self,
        shape: Shape,
        word: &str,
        base: &str,
        range: &Range,
    ) -> (Vec<(String, V)>, Vec<Export>) {
        let mut attrs: Vec<(String, V)> = Vec::new();
        let mut set = |key: &str, value: V| attrs.push((key.to_string(), value));
        let exports = match shape {
            Shape::RandomPet => {
                set("length", V::int(self.rng.between(1, 3)));
                set("separator", V::str("-"));
                let prefix = match range {
                    Range::None | Range::Cond(_) => {
                        if self.rng.chance(50) {
                            V::str(word)
                        } else {
                            V::raw(format!("\"{word}-${{{}}}\"", self.name_part()))
                        }
                    }
                    _ => V::raw(self.object_name(word, range)),
                };
                set("prefix", prefix);
                if self.rng.chance(40) {
                    set("keepers", self.keepers(range));
                }
                vec![Export::Name(".id")]
            }
            Shape::RandomString => {
                set("length", V::int(self.rng.between(6, 32)));
                set("special", V::bool(false));
                set("upper", V::bool(self.rng.chance(50)));
                set("numeric", V::bool(true));
                if self.rng.chance(30) {
                    set("minNumeric", V::int(2));
                }
                if !matches!(range, Range::None) || self.rng.chance(30) {
                    set("keepers", self.keepers(range));
                }
                vec![Export::Name(".result")]
            }
            Shape::RandomPassword => {
                set("length", V::int(self.rng.between(16, 40)));
                set("special", V::bool(true));
                set("overrideSpecial", V::str("_%@-"));
                set("minUpper", V::int(2));
                set("minNumeric", V::int(2));
                vec![Export::Password]
            }
            Shape::RandomInteger => {
                set("min", V::int(1024));
                set("max", V::int(1024 + self.rng.between(100, 60000)));
                set("seed", V::raw(self.string()));
                vec![Export::Int(".result")]
            }
            Shape::RandomId => {
                set("byteLength", V::int(*self.rng.pick(&[4, 8, 16])));
                let prefix = match range {
                    Range::None | Range::Cond(_) => V::str(&format!("{word}-")),
                    _ => V::raw(self.object_name(word, range)),
                };
                set("prefix", prefix);
                vec![Export::Name(".hex")]
            }
            Shape::RandomUuid => {
                let env = self.name_part();
                set(
                    "keepers",
                    obj([("service", V::str(word)), ("environment", V::raw(env))]),
                );
                vec![Export::Name(".result")]
            }
            Shape::RandomShuffle => {
                set("inputs", V::raw(self.list()));
                set("resultCount", V::int(self.rng.between(1, 2)));
                vec![
                    Export::EventualList(".results"),
                    Export::Name(".results[0]"),
                ]
            }
            Shape::Namespace => {
                let name = self.object_name(base, range);
                let labels = if self.rng.chance(50) {
                    V::raw(self.take_map().0)
                } else {
                    let env = self.name_part();
                    obj([
                        ("team", V::str(&format!("team-{word}"))),
                        ("environment", V::raw(env)),
                    ])
                };
                set("metadata", self.metadata(name, false, Some(labels)));
                vec![Export::Namespace]
            }
            Shape::ConfigMap => {
                let name = self.object_name(base, range);
                let meta = self.metadata(name, true, None);
                set("metadata", meta);
                let level = self.take(Pool::Levels).unwrap_or_else(|| lit("info"));
                let env = self.name_part();
                let endpoint = self.endpoint();
                let mut data = vec![
                    ("LOG_LEVEL".to_string(), V::raw(level)),
                    ("APP_ENV".to_string(), V::raw(env)),
                    ("SERVICE_ENDPOINT".to_string(), V::raw(endpoint)),
                ];
                if self.rng.chance(30) {
                    let i = self.int();
                    let list = self.list();
                    let json = obj([("replicas", V::raw(i)), ("hosts", V::raw(list))]);
                    data.push(("settings.json".to_string(), V::Call("toJSON", vec![json])));
                }
                if let Range::Map { .. } = range {
                    data.push(("SLOT".to_string(), V::raw("range.value")));
                }
                set("data", V::Obj(data));
                vec![Export::ConfigMap]
            }
            Shape::Secret => {
                let name = self.object_name(base, range);
                let meta = self.metadata(name, true, None);
                set("metadata", meta);
                set("type", V::str("Opaque"));
                let password = self
                    .take(Pool::Passwords)
                    .unwrap_or_else(|| lit("change-me"));
                set(
                    "stringData",
                    obj([("username", V::str(word)), ("password", V::raw(password))]),
                );
                vec![Export::Secret]
            }
            Shape::ServiceAccount => {
                let name = self.object_name(base, range);
                let labels = self.labels(word);
                set("metadata", self.metadata(name, true, Some(labels)));
                set("automountServiceAccountToken", V::bool(self.rng.chance(30)));
                vec![Export::ServiceAccount]
            }
            Shape::Deployment => {
                let app = base.to_string();
                let name = self.object_name(base, range);
                let meta = self.metadata(name, true, Some(obj([("app", V::str(&app))])));
                set("metadata", meta);
                let replicas = if self.rng.chance(70) {
                    V::raw(self.plain_int())
                } else {
                    V::int(self.rng.between(1, 5))
                };
                let pod_labels = || obj([("app", V::str(&app)), ("tier", V::str("backend"))]);
                let mut pod = Vec::new();
                if let Some(sa) = self.take(Pool::ServiceAccounts) {
                    pod.push(("serviceAccountName".to_string(), V::raw(sa)));
                }
                let container = self.container(word);
                pod.push(("containers".to_string(), V::List(vec![container])));
                let spec = obj([
                    ("replicas", replicas),
                    (
                        "selector",
                        obj([("matchLabels", obj([("app", V::str(&app))]))]),
                    ),
                    (
                        "template",
                        obj([
                            ("metadata", obj([("labels", pod_labels())])),
                            ("spec", V::Obj(pod)),
                        ]),
                    ),
                ]);
                set("spec", spec);
                vec![Export::Deployment { app }, Export::Int(".spec.replicas")]
            }
            Shape::Service => {
                let name = self.object_name(base, range);
                let (selector, app) = match self.take_deployment() {
                    Some((_, labels, app)) => (V::raw(labels), app),
                    None => (obj([("app", V::str(base))]), base.to_string()),
                };
                let meta = self.metadata(name, true, Some(obj([("app", V::str(&app))])));
                set("metadata", meta);
                let port = 8000 + self.rng.between(0, 99);
                let spec = obj([
                    (
                        "type",
                        V::str(if self.rng.chance(70) {
                            "ClusterIP"
                        } else {
                            "LoadBalancer"
                        }),
                    ),
                    ("selector", selector),
                    (
                        "ports",
                        V::List(vec![obj([
                            ("name", V::str("http")),
                            ("port", V::int(80)),
                            ("targetPort", V::int(port)),
                            ("protocol", V::str("TCP")),
                        ])]),
                    ),
                ]);
                set("spec", spec);
                vec![
                    Export::Endpoint(".metadata.name"),
                    Export::Endpoint(".spec.clusterIP"),
                ]
            }
            Shape::Role => {
                let name = self.object_name(base, range);
                let meta = self.metadata(name, true, None);
                set("metadata", meta);
                let resources: &[&str] = match self.rng.below(3) {
                    0 => &["configmaps", "secrets"],
                    1 => &["pods", "pods/log"],
                    _ => &["services", "endpoints"],
                };
                set(
                    "rules",
                    V::List(vec![obj([
                        ("apiGroups", V::strs(&[""])),
                        ("resources", V::strs(resources)),
                        ("verbs", V::strs(&["get", "list", "watch"])),
                    ])]),
                );
                vec![Export::Role]
            }
            Shape::RoleBinding => {
                let name = self.object_name(base, range);
                let ns = self.namespace();
                set(
                    "metadata",
                    obj([("name", V::raw(name)), ("namespace", V::raw(ns.clone()))]),
                );
                let role = self
                    .take(Pool::Roles)
                    .unwrap_or_else(|| lit(&format!("{word}-reader")));
                set(
                    "roleRef",
                    obj([
                        ("apiGroup", V::str("rbac.authorization.k8s.io")),
                        ("kind", V::str("Role")),
                        ("name", V::raw(role)),
                    ]),
                );
                let sa = self
                    .take(Pool::ServiceAccounts)
                    .unwrap_or_else(|| lit("default"));
                set(
                    "subjects",
                    V::List(vec![obj([
                        ("kind", V::str("ServiceAccount")),
                        ("name", V::raw(sa)),
                        ("namespace", V::raw(ns)),
                    ])]),
                );
                vec![Export::Str(".metadata.name")]
            }
            Shape::HorizontalPodAutoscaler => {
                let name = self.object_name(base, range);
                let meta = self.metadata(name, true, None);
                set("metadata", meta);
                let target = match self.take_deployment() {
                    Some((name, _, _)) => V::raw(name),
                    None => V::str(word),
                };
                let spec = obj([
                    (
                        "scaleTargetRef",
                        obj([
                            ("apiVersion", V::str("apps/v1")),
                            ("kind", V::str("Deployment")),
                            ("name", target),
                        ]),
                    ),
                    ("minReplicas", V::int(1)),
                    ("maxReplicas", V::int(self.rng.between(3, 10))),
                    (
                        "targetCPUUtilizationPercentage",
                        V::int(self.rng.between(60, 85)),
                    ),
                ]);
                set("spec", spec);
                vec![Export::Str(".metadata.name")]
            }
            Shape::PodDisruptionBudget => {
                let name = self.object_name(base, range);
                let meta = self.metadata(name, true, None);
                set("metadata", meta);
                let app = match self.take_deployment() {
                    Some((_, _, app)) => app,
                    None => base.to_string(),
                };
                let spec = obj([
                    ("minAvailable", V::int(1)),
                    (
                        "selector",
                        obj([("matchLabels", obj([("app", V::str(&app))]))]),
                    ),
                ]);
                set("spec", spec);
                vec![Export::Str(".metadata.name")]
            }
        };
        (attrs, exports)
    }

    /// One container of a deployment's pod.
    fn container(&mut self, word: &str) -> V {
        let image = self.image();
        let port = 8000 + self.rng.between(0, 99);
        let env_value = self.name_part();
        let mut env = vec![obj([
            ("name", V::str("ENVIRONMENT")),
            ("value", V::raw(env_value)),
        ])];
        if self.rng.chance(50) {
            let endpoint = self.endpoint();
            env.push(obj([
                ("name", V::str("UPSTREAM")),
                ("value", V::raw(endpoint)),
            ]));
        }
        if let Some(cm) = self.take(Pool::ConfigMaps) {
            env.push(obj([
                ("name", V::str("LOG_LEVEL")),
                (
                    "valueFrom",
                    obj([(
                        "configMapKeyRef",
                        obj([("name", V::raw(cm)), ("key", V::str("LOG_LEVEL"))]),
                    )]),
                ),
            ]));
        }
        if self.rng.chance(60) {
            if let Some(secret) = self.take(Pool::Secrets) {
                env.push(obj([
                    ("name", V::str("DB_PASSWORD")),
                    (
                        "valueFrom",
                        obj([(
                            "secretKeyRef",
                            obj([("name", V::raw(secret)), ("key", V::str("password"))]),
                        )]),
                    ),
                ]));
            }
        }
        let mut items = vec![
            ("name".to_string(), V::str(word)),
            ("image".to_string(), V::raw(image)),
            (
                "ports".to_string(),
                V::List(vec![obj([
                    ("name", V::str("http")),
                    ("containerPort", V::int(port)),
                ])]),
            ),
            ("env".to_string(), V::List(env)),
        ];
        if self.rng.chance(60) {
            items.push((
                "resources".to_string(),
                obj([
                    (
                        "requests",
                        obj([("cpu", V::str("100m")), ("memory", V::str("128Mi"))]),
                    ),
                    (
                        "limits",
                        obj([("cpu", V::str("500m")), ("memory", V::str("512Mi"))]),
                    ),
                ]),
            ));
        }
        if self.rng.chance(20) {
            items.push(("args".to_string(), V::strs(&["--port", "8080"])));
        }
        V::Obj(items)
    }
}

/// `header { attrs  options { ... } }`.
fn block(header: &str, attrs: &[(String, V)], options: &[(String, V)]) -> String {
    let mut text = format!("{header} {{\n");
    write_attrs(&mut text, attrs, 1);
    if !options.is_empty() {
        text.push_str("\n  options {\n");
        write_attrs(&mut text, options, 2);
        text.push_str("  }\n");
    }
    text.push_str("}\n");
    text
}
