//! The component program, `components/app/`: one application (service account, config map,
//! deployment, service) parameterized by its `config` variables, which are the component's
//! inputs. It is fixed text, the same for every seed and size.

use crate::GeneratedFile;

/// The component's directory, relative to the program directory.
pub const DIR: &str = "components/app";

/// The source label of the `component` blocks that use it.
pub const SOURCE: &str = "./components/app";

/// The component's inputs (its configs): `(name, type, required)`.
pub const INPUTS: &[(&str, &str, bool)] = &[
    ("appName", "string", true),
    ("namespaceName", "string", true),
    ("image", "string", false),
    ("replicas", "int", false),
    ("port", "int", false),
    ("extraLabels", "map(string)", false),
];

/// The component's outputs.
pub const OUTPUTS: &[&str] = &["serviceName", "deploymentName", "serviceAccountName", "url"];

const CONFIG_PP: &str = r#"# The inputs of the app component. Those without a default are required.

config appName "string" {
  description = "Name of the application, the base of every object name"
}

config namespaceName "string" {
  description = "Namespace to deploy into"
}

config image "string" {
  default     = "nginx:1.25"
  description = "Container image"
}

config replicas "int" {
  default = 1
}

config port "int" {
  default     = 80
  description = "Port the container listens on"
}

config extraLabels "map(string)" {
  default     = {}
  description = "Labels added to every object"
}
"#;

const MAIN_PP: &str = r#"# One application: a service account, its settings, a deployment and a service in front of it.

resource suffix "random:index/randomString:RandomString" {
  length  = 6
  special = false
  upper   = false
}

fullName = "${appName}-${suffix.result}"

podLabels = {
  app       = appName
  component = "app"
}

resource serviceAccount "kubernetes:core/v1:ServiceAccount" {
  metadata = {
    name      = fullName
    namespace = namespaceName
    labels    = extraLabels
  }
}

resource settings "kubernetes:core/v1:ConfigMap" {
  metadata = {
    name      = "${fullName}-settings"
    namespace = namespaceName
    labels    = extraLabels
  }
  data = {
    APP_NAME    = appName
    LISTEN_ADDR = "0.0.0.0:${port}"
    REPLICAS    = toJSON(replicas)
  }
}

resource deployment "kubernetes:apps/v1:Deployment" {
  metadata = {
    name      = fullName
    namespace = namespaceName
    labels    = extraLabels
  }
  spec = {
    replicas = replicas
    selector = {
      matchLabels = podLabels
    }
    template = {
      metadata = {
        labels = podLabels
      }
      spec = {
        serviceAccountName = serviceAccount.metadata.name
        containers = [
          {
            name  = "app"
            image = image
            ports = [
              {
                name          = "http"
                containerPort = port
              },
            ]
            env = [
              {
                name = "LISTEN_ADDR"
                valueFrom = {
                  configMapKeyRef = {
                    name = settings.metadata.name
                    key  = "LISTEN_ADDR"
                  }
                }
              },
            ]
          },
        ]
      }
    }
  }
}

resource service "kubernetes:core/v1:Service" {
  metadata = {
    name      = fullName
    namespace = namespaceName
    labels    = extraLabels
  }
  spec = {
    selector = podLabels
    ports = [
      {
        name       = "http"
        port       = 80
        targetPort = port
      },
    ]
  }

  options {
    dependsOn = [deployment]
  }
}

output serviceName {
  value = service.metadata.name
}

output deploymentName {
  value = deployment.metadata.name
}

output serviceAccountName {
  value = serviceAccount.metadata.name
}

output url {
  value = "http://${service.metadata.name}.${namespaceName}.svc.cluster.local"
}
"#;

/// The component's files, paths relative to the program directory.
pub fn files() -> Vec<GeneratedFile> {
    vec![
        GeneratedFile {
            path: format!("{DIR}/config.pp"),
            text: CONFIG_PP.to_string(),
        },
        GeneratedFile {
            path: format!("{DIR}/main.pp"),
            text: MAIN_PP.to_string(),
        },
    ]
}
