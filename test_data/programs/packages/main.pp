# package blocks: the version they declare chooses the schema.

package {
  baseProviderName    = "demo"
  baseProviderVersion = "1.0.0"
}

package {
  baseProviderName    = "other"
  baseProviderVersion = "latest"
  parameterization {
    name = "thing"
  }
}

package {
  baseProviderVersion = "1.0.0"
}

resource site "demo:storage/bucket:Bucket" {
  name = "site"
}

pulumi {
  requiredVersionRange = ">=3.0.0"
}
