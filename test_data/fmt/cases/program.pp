config   region string {
 default = "us-west-2"
   description="The region"
}
resource   bucket   "aws:s3:Bucket" {
options {
 range = 3
protect=true
  dependsOn = [ other ]
}
 bucket = "b-${ range.value }"
 tags = { Name="x", "Env" = "dev" }
}
output   name {
value=bucket[0].id
}
