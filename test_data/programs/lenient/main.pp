# Lenient mode: packages without schemas and unknown names are warnings.

resource vpc "aws:ec2/vpc:Vpc" {
  cidrBlock = "10.0.0.0/16"
}

resource subnet "aws:ec2/subnet:Subnet" {
  vpcId = vpc.id
}

resource bucket "demo:storage/bucket:Bucket" {
  nmae = "typo"
}

resource unknownType "demo:storage/bucket:Buckt" {
  name = "x"
}

ami = invoke("aws:ec2/getAmi:getAmi", { mostRecent = true })
subnetId = subnet.id
missing = undefinedThing
