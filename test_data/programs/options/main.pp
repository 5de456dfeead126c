# Every resource option, with values of the right type, then mistakes.

resource first "demo:storage/bucket:Bucket" {
  name = "first"
}

resource provider "pulumi:providers:demo" {
  region = "eu-west-1"
}

hook "resource" announce {
  command = ["echo", args.name]
}

hook "error" failed {
  command = ["echo", "failed"]
}

resource everything "demo:storage/bucket:Bucket" {
  options {
    dependsOn               = [first]
    parent                  = first
    provider                = provider
    providers               = [provider]
    protect                 = true
    retainOnDelete          = false
    deleteBeforeReplace     = true
    ignoreChanges           = [tags, website.indexDocument, lifecycleRules[0].days]
    hideDiffs               = [tags]
    replaceOnChanges        = [name]
    additionalSecretOutputs = [acl]
    version                 = "1.0.0"
    pluginDownloadURL       = "https://example.com/plugins"
    customTimeouts          = { create = "5m", delete = "10m" }
    deletedWith             = first
    replaceWith             = [first]
    import                  = "bucket-123"
    aliases                 = ["old-name", { name = "older", noParent = true }]
    replacementTrigger      = first.arn
    envVarMappings          = { DEMO_TOKEN = "TOKEN" }
    hooks                   = { beforeCreate = [announce], onError = [failed] }
  }
  name = "everything"
}

resource mistakes "demo:storage/bucket:Bucket" {
  options {
    protect        = "yes"
    dependsOn      = first
    ignoreChanges  = [tag, website.indexDoc, "name"]
    customTimeouts = { create = 5 }
    version        = "latest"
    hooks          = { beforeCreat = [announce], afterCreate = [failed], onError = [announce] }
    retainOnDelet  = true
  }
  name = "mistakes"
}

resource notAList "demo:storage/bucket:Bucket" {
  options {
    ignoreChanges = tags
    hooks         = [announce]
  }
  name = "not-a-list"
}

# Misspelled keys of the options' objects are warned about, as invoke options' are.
resource misspelledKeys "demo:storage/bucket:Bucket" {
  options {
    customTimeouts = { craete = "5m", delete = "10m" }
    aliases        = ["old-name", { nmae = "older" }, { name = "oldest", noParnet = true }, { noParent = "maybe" }]
  }
  name = "misspelled-keys"
}
